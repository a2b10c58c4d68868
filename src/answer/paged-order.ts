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
  /** The client numbers at places [from, to) (to past the end: up to the end). */
  slice(from: number, to: number): Promise<number[]>;
  /** The bytes of the arrays it holds now (the selection included), for the weight of a cache entry. */
  readonly bytes: number;
}
