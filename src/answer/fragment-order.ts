import type { SortTerm } from './ordering-terms.ts';
import { readingThrough, type OrderFragments, type PagedOrder } from './paged-order.ts';
import { orderPlan, walkGroup, type OrderPlan } from './order-groups.ts';
import { groupsAround } from './order-runs.ts';
import { scanSelection } from './selection-scan.ts';
import { listedSelection, type Selection } from './selection.ts';

export type { OrderFragments, PagedOrder };

/**
 * Pages of clients in the order of a request's terms (contract section 9), read from the order
 * fragments (bundle/order-fragments.ts): a page reads the fragments around its places, and reads the
 * groups of equal T1 values it meets in their order by T2 and id (each group's order by the other
 * field is in the fragments). Nothing is sorted, nor built for every client.
 */

/** Every client in the order of the terms. */
export function orderAll(source: OrderFragments, terms: readonly SortTerm[]): PagedOrder {
  const plan = orderPlan(terms);
  const { total } = source;
  if (plan.first === undefined) return idOrder(total, plan.idDescending, (place) => place, 0);
  return { count: total, bytes: 0, slice: (from, to, read) => pageOf(readingThrough(source, read), plan, Math.max(0, from), Math.min(to, total)) };
}

/** The selected clients (ascending client numbers, or a selection of them) in the order of the terms. */
export function orderSelected(source: OrderFragments, selected: Int32Array | Selection, terms: readonly SortTerm[]): PagedOrder {
  if (selected instanceof Int32Array && selected.length > 0 && (selected[0]! < 0 || selected.at(-1)! >= source.total)) {
    throw new TypeError(`Expected client numbers from 0 to ${source.total - 1}, not ${selected[0]} to ${selected.at(-1)}`);
  }
  const selection = selected instanceof Int32Array ? listedSelection(selected, source.total) : selected;
  const plan = orderPlan(terms);
  if (plan.first === undefined) return idOrder(selection.count, plan.idDescending, (place) => selection.at(place), selection.bytes);
  // Every client selected: a page reads only its own fragments.
  if (selection.count === source.total) return orderAll(source, terms);
  return scanSelection(source, selection, plan);
}

function idOrder(count: number, descending: boolean, at: (place: number) => number, bytes: number): PagedOrder {
  return {
    count,
    bytes,
    slice: async (from, to) => {
      const clients: number[] = [];
      for (let place = Math.max(0, from); place < Math.min(to, count); place++) clients.push(at(descending ? count - 1 - place : place));
      return clients;
    },
  };
}

/**
 * Places [from, to) of the order. Ascending, a place is a place of T1's fragments; descending, the
 * groups come in reverse but null dates stay first: places below `nullDates` are the null group's,
 * the others mirror the ascending order's non-null places.
 */
async function pageOf(source: OrderFragments, plan: OrderPlan, from: number, to: number): Promise<number[]> {
  const page = new Array<number>(Math.max(0, to - from));
  if (page.length === 0) return page;
  const { field, descending } = plan.first!;
  if (!descending) {
    await fillPage(source, plan, page, from, { start: from, end: to, mirrored: false });
    return page;
  }
  const leading = field === 'date' ? source.nullDates : 0;
  if (from < leading) await fillPage(source, plan, page, from, { start: from, end: Math.min(to, leading), mirrored: false });
  const mirror = source.total + leading;
  if (to > leading) await fillPage(source, plan, page, from, { start: mirror - to, end: mirror - Math.max(from, leading), mirrored: true, mirror });
  return page;
}

/** A range of ascending places and where its groups go in the page: at their places, or mirrored (group [s, e) at mirror - e). */
type AscendingRange = { start: number; end: number } & ({ mirrored: false } | { mirrored: true; mirror: number });

async function fillPage(source: OrderFragments, plan: OrderPlan, page: number[], from: number, range: AscendingRange): Promise<void> {
  const run = await groupsAround(source, plan.first!.field, range.start, range.end);
  for (let s = run.start - run.first; s < run.end - run.first; ) {
    let e = s + 1;
    while (e < run.clients.length && run.starts[e] !== 1) e++;
    const out = range.mirrored ? range.mirror - (run.first + e) : run.first + s;
    // Only the part of the group that the page shows is read.
    const low = Math.max(out, from);
    const high = Math.min(out + e - s, from + page.length);
    let place = low;
    if (low < high) {
      walkGroup(run, s, e, plan, low - out, high - out, (client) => {
        page[place++ - from] = client;
        return true;
      });
    }
    s = e;
  }
}
