import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { PlaceOrder } from '../bundle/registrant-columns.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The registrants in the order of a request's terms (contract section 10), read off the precomputed
 * orders (bundle/registrant-columns.ts) rather than sorted: the first term's order is walked in its
 * direction, and only each run of registrants equal on it (its ties) is put in the order of the
 * terms after it, the second term and then `id`. Runs are short (a name shared by a few registrants,
 * an instant by almost none), so an answer sorts a few handfuls of registrants, never all of them.
 *
 * Without a filter, a page sorts only the runs its places fall in; with one, the walk passes every
 * registrant once, keeping those selected. Places are in id order: `id` is the place itself.
 */
export interface OrderedRegistrants {
  readonly count: number;
  /** The places of the registrants from place `from` to `to` (exclusive) in this order. */
  slice(from: number, to: number): number[];
}

export async function orderRegistrantPlaces(bundle: QueryBundle, selected: Int32Array | undefined, terms: readonly SortTerm[]): Promise<OrderedRegistrants> {
  const [first, second] = terms;
  const idDescending = terms.at(-1)!.descending;
  if (first!.field === 'id') return inIdOrder(selected ?? bundle.manifest.registrants, idDescending);
  const walk = new Walk(await bundle.registrantColumn(first!.field === 'name' ? 'nameOrder' : 'updatedOrder'), first!.descending);
  const later = terms.length === 3 ? second : undefined;
  if (selected === undefined) {
    // A page's runs are sorted as the page is read: what they are sorted by is read now.
    const sortRun = await runSorter(bundle, later, idDescending);
    return { count: walk.total, slice: (from, to) => walk.stepsBetween(from, to, sortRun) };
  }
  const { places, runs } = walk.keeping(selected);
  if (runs.length > 0) {
    const sortRun = await runSorter(bundle, later, idDescending);
    for (let r = 0; r < runs.length; r += 2) sortRun(places.subarray(runs[r]!, runs[r + 1]!));
  }
  return { count: places.length, slice: (from, to) => Array.from(places.subarray(from, to)) };
}

/** Places in id order, or its reverse: all of them (a count) or those selected. */
function inIdOrder(places: number | Int32Array, descending: boolean): OrderedRegistrants {
  const count = typeof places === 'number' ? places : places.length;
  const at = typeof places === 'number' ? (place: number) => place : (place: number) => places[place]!;
  return {
    count,
    slice(from, to) {
      const found: number[] = [];
      for (let step = from; step < Math.min(to, count); step++) found.push(at(descending ? count - 1 - step : step));
      return found;
    },
  };
}

/** Puts a run of places tied on the first term, ascending, in the order of the terms after it. */
type RunSorter = (run: Int32Array) => void;

async function runSorter(bundle: QueryBundle, term: SortTerm | undefined, idDescending: boolean): Promise<RunSorter> {
  const byId = (a: number, b: number) => (idDescending ? b - a : a - b);
  if (term === undefined) return (run) => void (idDescending && run.reverse());
  const sign = term.descending ? -1 : 1;
  if (term.field === 'date') {
    const updated = await bundle.registrantColumn('updated');
    // No dt_updated sorts before every instant, as in the precomputed order (so after them all, descending).
    const instant = (place: number) => (Number.isNaN(updated[place]!) ? -Infinity : updated[place]!);
    return (run) => void run.sort((a, b) => sign * (instant(a) - instant(b) || 0) || byId(a, b));
  }
  const rank = ranksOf(await bundle.registrantColumn('nameOrder'));
  return (run) => void run.sort((a, b) => sign * (rank[a]! - rank[b]!) || byId(a, b));
}

const ranks = new WeakMap<PlaceOrder, Uint32Array>();

/** Each place's rank in an order, equal values (`ties`) sharing one: counted once per bundle. */
function ranksOf(column: PlaceOrder): Uint32Array {
  let rank = ranks.get(column);
  if (rank === undefined) {
    const { order, ties } = column;
    rank = new Uint32Array(order.length);
    let current = -1;
    for (let p = 0; p < order.length; p++) {
      if (ties[p] !== 1) current++;
      rank[order[p]!] = current;
    }
    ranks.set(column, rank);
  }
  return rank;
}

/** One precomputed order walked in a direction: step k of the walk is a position in the order. */
class Walk {
  readonly total: number;

  constructor(
    private readonly column: PlaceOrder,
    private readonly descending: boolean,
  ) {
    this.total = column.order.length;
  }

  /** The places of steps `from` to `to` (exclusive), each run of ties they touch sorted whole. */
  stepsBetween(from: number, to: number, sortRun: RunSorter): number[] {
    const found: number[] = [];
    for (let step = from; step < Math.min(to, this.total); ) {
      const [start, end] = this.runAround(step);
      const run = new Int32Array(end - start);
      for (let s = start; s < end; s++) run[s - start] = this.column.order[this.descending ? this.total - 1 - s : s]!;
      // The order holds a run ascending by place: walked backwards it comes descending.
      if (this.descending) run.reverse();
      if (run.length > 1) sortRun(run);
      for (; step < Math.min(end, to); step++) found.push(run[step - start]!);
    }
    return found;
  }

  /** The run of ties around a step: its first step and the step past its last. */
  private runAround(step: number): [number, number] {
    const { ties } = this.column;
    let start = this.descending ? this.total - 1 - step : step;
    let end = start + 1;
    while (start > 0 && ties[start] === 1) start--;
    while (end < this.total && ties[end] === 1) end++;
    return this.descending ? [this.total - end, this.total - start] : [start, end];
  }

  /**
   * The selected places (ascending) in the walk's order, each run of ties ascending by place, and
   * where the runs of two or more are (start and past-last index pairs), for the terms after it.
   */
  keeping(selected: Int32Array): { places: Int32Array; runs: number[] } {
    const { order, ties } = this.column;
    const kept = new Uint8Array(this.total);
    for (let i = 0; i < selected.length; i++) kept[selected[i]!] = 1;
    const places = new Int32Array(selected.length);
    const runs: number[] = [];
    let count = 0;
    let runStart = 0;
    // Forwards through the order, whichever the direction: one plain loop, the cheapest for a fresh instance.
    for (let position = 0; position < this.total; position++) {
      if (ties[position] !== 1) {
        if (count - runStart > 1) runs.push(runStart, count);
        runStart = count;
      }
      if (kept[order[position]!] === 1) places[count++] = order[position]!;
    }
    if (count - runStart > 1) runs.push(runStart, count);
    if (!this.descending) return { places, runs };
    // Backwards: the whole reversed, and each run put back ascending by place, as the order holds it.
    places.reverse();
    const reversed: number[] = [];
    for (let r = runs.length - 2; r >= 0; r -= 2) {
      reversed.push(count - runs[r + 1]!, count - runs[r]!);
      places.subarray(count - runs[r + 1]!, count - runs[r]!).reverse();
    }
    return { places, runs: reversed };
  }
}
