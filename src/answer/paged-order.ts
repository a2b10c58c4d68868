import type { OrderField, OrderFragment } from '../bundle/order-fragments.ts';
import type { FieldTerm } from './order-groups.ts';

/** What the orders of fragment-order.ts read (the bundle's order fragments, through its cache) and what they give. */
export interface OrderFragments {
  /** How many clients (client numbers 0 to total - 1, in id order). */
  total: number;
  /** Places in each fragment (ORDER_PLACES as the build writes them). */
  places: number;
  /** Clients with no date: the date order's first group, first in either direction. */
  nullDates: number;
  /** Fragment `k` (places k * places onwards) of the field's ascending order. */
  fragment(field: OrderField, k: number): Promise<OrderFragment>;
  /**
   * Each client's place in the field's ascending order (by client number), when it can be had
   * without reading: an instance holding every fragment of the order (the steady state) works it out
   * once and keeps it; a fresh one gets undefined, and reads only the fragments its page needs.
   */
  heldPlaces?(field: OrderField): Int32Array | undefined;
}

export interface PagedOrder {
  readonly count: number;
  /**
   * The client numbers at places [from, to) (to past the end: up to the end), the fragments read
   * through `read` when given (the view of the answer asking: an order kept by the result cache is
   * read again by later requests, none of which may wait on another's read), else through the source's.
   */
  slice(from: number, to: number, read?: OrderFragments['fragment']): Promise<number[]>;
  /** The bytes of the arrays it holds now (the selection included), for the weight of a cache entry. */
  readonly bytes: number;
}

/** The source with its fragments read through `read`, when given. */
export function readingThrough(source: OrderFragments, read: OrderFragments['fragment'] | undefined): OrderFragments {
  return read === undefined ? source : { ...source, fragment: read };
}

/** Places [low, high) of a field's ascending order, read upwards or downwards. */
export interface Leg {
  low: number;
  high: number;
  backwards: boolean;
}

/**
 * The legs of the order of T1: ascending, every place upwards; descending, the null dates first
 * (places 0 to nullDates - 1, upwards), then the others from the last place down. Each is a run of
 * whole groups.
 */
export function orderLegs(source: OrderFragments, { field, descending }: FieldTerm): Leg[] {
  const { total } = source;
  const leading = field === 'date' ? source.nullDates : 0;
  if (!descending) return [{ low: 0, high: total, backwards: false }];
  return [...(leading > 0 ? [{ low: 0, high: leading, backwards: false }] : []), { low: leading, high: total, backwards: true }];
}
