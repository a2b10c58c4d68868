import type { FilterName } from '../contract.ts';
import { lastPageFor } from './page-count.ts';
import type { FilterInput } from './rewrite-map-builder.ts';

/**
 * What planning reads of the store's index of filter values. The store is one; it is passed in, so
 * that plan/ stays pure and imports no store.
 */
export interface ValueCountReader {
  filterValueCounts(filter: FilterName): Iterable<{ value: string | number; count: number }>;
}

/** What is decided of a filter's lists before rendering (`planFilter`). */
export interface FilterPlan {
  input: FilterInput;
  pages: number;
}

/**
 * A filter's lists, from the store: the values it accepts that clients have, the last page of those
 * with more than one (for the map), and how many pages all of its lists have in one format and ordering.
 * `choices`: the values a choice filter accepts (the live service's list); undefined for a number filter.
 */
export function planFilter(store: ValueCountReader, name: FilterName, choices: readonly string[] | undefined): FilterPlan {
  const lastPages: Record<string, number> = {};
  let pages = 0;
  for (const [value, count] of valueCounts(store, name, choices)) {
    const last = lastPageFor(count);
    if (last > 1) lastPages[value] = last;
    pages += last;
  }
  return { input: { name, choices, lastPages }, pages };
}

/**
 * Clients per value of a filter (canonical form), for the values it accepts: a code that clients have
 * but the filter's choice list lacks cannot be asked for (contract section 8), so it has no lists.
 */
export function valueCounts(store: ValueCountReader, filter: FilterName, choices: readonly string[] | undefined): Map<string, number> {
  const accepted = choices === undefined ? undefined : new Set(choices);
  const counts = new Map<string, number>();
  for (const { value, count } of store.filterValueCounts(filter)) {
    const canonical = String(value);
    if (accepted === undefined || accepted.has(canonical)) counts.set(canonical, count);
  }
  return counts;
}
