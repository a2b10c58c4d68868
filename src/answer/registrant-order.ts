import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { PlaceOrder, RegistrantColumnTypes } from '../bundle/registrant-columns.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The registrants in the order of a request's terms (contract section 10), from the precomputed
 * orders and ranks (bundle/registrant-columns.ts), never by comparing every registrant in JavaScript,
 * which a fresh instance runs interpreted. Places are in id order: `id` is the place itself.
 *
 * Without a filter, the first term's order is walked in its direction and a page sorts only the runs
 * of registrants equal on it (its ties) that its places fall in, by the second term's rank and then
 * `id`: a page reads one order and, when it meets ties, the ranks. With a filter, the registrants
 * selected are sorted by their ranks (`placesByRanks`): no loop passes every registrant.
 */
export interface OrderedRegistrants {
  readonly count: number;
  /** The places of the registrants from place `from` to `to` (exclusive) in this order. */
  slice(from: number, to: number): number[] | Promise<number[]>;
}

export async function orderRegistrantPlaces(bundle: QueryBundle, selected: Int32Array | undefined, terms: readonly SortTerm[]): Promise<OrderedRegistrants> {
  const [first, second] = terms;
  const idDescending = terms.at(-1)!.descending;
  if (first!.field === 'id') return inIdOrder(selected ?? bundle.manifest.registrants, idDescending);
  if (selected !== undefined) {
    const places = placesByRanks(selected, terms, await bundle.registrantColumn('ranks'), bundle.manifest.registrants);
    return { count: places.length, slice: (from, to) => Array.from(places.subarray(from, to)) };
  }
  const walk = new Walk(await bundle.registrantColumn(first!.field === 'name' ? 'nameOrder' : 'updatedOrder'), first!.descending);
  const later = terms.length === 3 ? second : undefined;
  // A page's runs are sorted as the page is read, and the ranks they are sorted by are read only when
  // a page meets a run of two or more, through a view of the page's own: the order is kept for later
  // requests' pages, none of which may wait on a read of another.
  let sortRun: RunSorter | undefined;
  return {
    count: walk.total,
    slice: async (from, to) => {
      if (sortRun === undefined && walk.meetsTies(from, to)) sortRun = runSorter(later === undefined ? undefined : await bundle.forAnswer().registrantColumn('ranks'), later, idDescending);
      return walk.stepsBetween(from, to, sortRun);
    },
  };
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

type Ranks = RegistrantColumnTypes['ranks'];

/**
 * The selected places in the order of the terms (the last on `id`): each place's ranks by the terms
 * and the place itself made one number, digits of base `total` (a rank or place is below it,
 * reversed for a descending term), and the numbers sorted by the engine's own numeric sort, not by
 * a comparison called in JavaScript for every pair; the place is the number's last digit. Past
 * 208,063 registrants three such digits no longer fit a double's 53 bits: pairs are compared.
 */
export function placesByRanks(selected: Int32Array, terms: readonly SortTerm[], ranks: Ranks, total: number): Int32Array {
  const columns = terms.map((term) => (term.field === 'id' ? undefined : term.field === 'name' ? ranks.name : ranks.updated));
  const digit = (t: number, place: number) => {
    const value = columns[t] === undefined ? place : columns[t]![place]!;
    return terms[t]!.descending ? total - 1 - value : value;
  };
  if (total ** terms.length > 2 ** 53) {
    return selected.slice().sort((a, b) => {
      for (let t = 0; t < terms.length; t++) if (digit(t, a) !== digit(t, b)) return digit(t, a) - digit(t, b);
      return 0;
    });
  }
  // A term at a time over every place, its column and direction looked up once: a fresh instance runs
  // this loop interpreted, and a call a digit cost more than the digit.
  const keys = new Float64Array(selected.length);
  terms.forEach((term, t) => {
    const column = columns[t];
    const top = term.descending ? total - 1 : 0;
    const sign = term.descending ? -1 : 1;
    for (let i = 0; i < selected.length; i++) {
      const place = selected[i]!;
      keys[i] = keys[i]! * total + top + sign * (column === undefined ? place : column[place]!);
    }
  });
  keys.sort();
  const places = new Int32Array(keys.length);
  const idDescending = terms.at(-1)!.descending;
  for (let i = 0; i < keys.length; i++) places[i] = idDescending ? total - 1 - (keys[i]! % total) : keys[i]! % total;
  return places;
}

/** Puts a run of places tied on the first term, ascending, in the order of the terms after it. */
type RunSorter = (run: Int32Array) => void;

function runSorter(ranks: Ranks | undefined, term: SortTerm | undefined, idDescending: boolean): RunSorter {
  const byId = (a: number, b: number) => (idDescending ? b - a : a - b);
  if (term === undefined || ranks === undefined) return (run) => void (idDescending && run.reverse());
  const sign = term.descending ? -1 : 1;
  const rank = term.field === 'name' ? ranks.name : ranks.updated;
  return (run) => void run.sort((a, b) => sign * (rank[a]! - rank[b]!) || byId(a, b));
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

  /** Whether steps `from` to `to` (exclusive) touch a run of two or more ties. */
  meetsTies(from: number, to: number): boolean {
    for (let step = from; step < Math.min(to, this.total); ) {
      const [start, end] = this.runAround(step);
      if (end - start > 1) return true;
      step = end;
    }
    return false;
  }

  /** The places of steps `from` to `to` (exclusive), each run of ties they touch sorted whole (`sortRun` is needed only where they touch one). */
  stepsBetween(from: number, to: number, sortRun: RunSorter | undefined): number[] {
    const found: number[] = [];
    for (let step = from; step < Math.min(to, this.total); ) {
      const [start, end] = this.runAround(step);
      const run = new Int32Array(end - start);
      for (let s = start; s < end; s++) run[s - start] = this.column.order[this.descending ? this.total - 1 - s : s]!;
      // The order holds a run ascending by place: walked backwards it comes descending.
      if (this.descending) run.reverse();
      if (run.length > 1) sortRun!(run);
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
}
