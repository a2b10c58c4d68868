import { decodeSections, encodeSections } from './sections.ts';

/**
 * The clients in name order (contract section 9: names compared by code point, ties by id): each
 * client's global index, ascending by name then id, and for each place whether its name equals the
 * one before (`ties`), from which the answerer ranks names for orderings of several terms. Read from
 * the store, which sorts names as SQLite's BINARY collation does: by code point.
 */
export interface NameOrder {
  /** Global indexes, by ascending name then ascending id; read backwards, descending name then descending id. */
  readonly order: Uint32Array;
  /** 1 where the name equals the previous one's. */
  readonly ties: Uint8Array;
}

export function encodeNameOrder(order: Uint32Array, ties: Uint8Array): Uint8Array {
  return encodeSections({}, { order, ties });
}

export function decodeNameOrder(bytes: Uint8Array, file: string): NameOrder {
  const sections = decodeSections(bytes, file);
  const order = sections.section('order', Uint32Array);
  const ties = sections.section('ties', Uint8Array);
  if (ties.length !== order.length) throw new Error(`${file}: ${order.length} clients in order but ${ties.length} ties`);
  return { order, ties };
}
