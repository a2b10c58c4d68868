import { encodeTextList, type TextList } from './text-list.ts';
import { decodeSections, encodeSections } from './sections.ts';
import { sortedIndexOf } from './sorted-arrays.ts';

/**
 * The registrants some client embeds, by id, with each one's name for `registrant_name` (name-list.ts).
 * Only these
 * registrants have a record path: a registrant's text may still sit in a pack after its last client
 * went (registrant-packs.ts).
 */
export interface RegistrantIndex {
  readonly ids: Float64Array;
  readonly names: TextList;
  /** Where `id` is in `ids`, or -1 when no client embeds that registrant. */
  find(id: number): number;
}

export function encodeRegistrantIndex(registrants: readonly { id: number; searchName: string }[]): Uint8Array {
  const names = encodeTextList(registrants.map((registrant) => registrant.searchName));
  return encodeSections({}, { ids: Float64Array.from(registrants, (registrant) => registrant.id), nameEnds: names.ends, names: names.bytes });
}

export function decodeRegistrantIndex(bytes: Uint8Array, file: string): RegistrantIndex {
  const sections = decodeSections(bytes, file);
  const ids = sections.section('ids', Float64Array);
  return {
    ids,
    names: { bytes: sections.section('names', Uint8Array), ends: sections.section('nameEnds', Uint32Array) },
    find: (id) => sortedIndexOf(ids, id),
  };
}
