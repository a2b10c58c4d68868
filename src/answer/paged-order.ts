import type { OrderField, OrderFragment } from '../bundle/order-fragments.ts';

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
