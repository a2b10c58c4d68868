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
  if (selected !== undefined) return placesByRanks(selected, terms, await bundle.registrantColumn('ranks'), bundle.manifest.registrants);
  const walk = new Walk(await bundle.registrantColumn(first!.field === 'name' ? 'nameOrder' : 'updatedOrder'), first!.descending);
  const later = terms.length === 3 ? second : undefined;
  // A page's runs are sorted as the page is read, and the ranks they are sorted by are read only when
  // a page meets a run of two or more, through a view of the page's own: the order is kept for later
  // requests' pages, none of which may wait on a read of another.
  let sortRun: RunSorter | undefined;
  return {
    count: walk.total,
    slice: async (from, to) => {
      if (sortRun === undefined && walk.meetsTies(from, to)) sortRun = runSorter(later === undefined ? undefined : await bundle.forAnswer().registrantColumn('ranks'), later, idDescending, walk.total);
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
 * The selected places in the order of the terms (the first not on `id`, the last on it): each place's
 * rank by the first term and the place itself made one number, two digits of base `total` (reversed
 * for a descending term), and the numbers sorted by the engine's own numeric sort, not by a
 * comparison called in JavaScript for every pair. A fresh instance runs the loop that makes them
 * interpreted, so it is one loop over the places (thousands: `LLC` with a state, a country and a date
 * keeps 1,970 at 17,365 registrants), whatever the terms. The places tied on the first term are put
 * in the order of the second (with three terms) only where a slice meets them, each run sorted as a
 * whole the same way: a page sorts its own runs, as the walk of an unfiltered order does.
 */
export function placesByRanks(selected: Int32Array, terms: readonly SortTerm[], ranks: Ranks, total: number): OrderedRegistrants {
  if (total * total > Number.MAX_SAFE_INTEGER) throw new RangeError(`${total} registrants: two digits of base ${total} do not fit a double`);
  const [first, middle] = terms;
  const idDescending = terms.at(-1)!.descending;
  const keys = rankKeys(selected, rankColumn(ranks, first!), first!.descending, idDescending, total);
  keys.sort();
  const count = keys.length;
  const placeAt = (step: number) => placeOfKey(keys[step]!, total, idDescending);
  if (terms.length < 3) return { count, slice: (from, to) => Array.from({ length: Math.max(0, Math.min(to, count) - from) }, (_, k) => placeAt(from + k)) };
  const firstDigit = (step: number) => Math.floor(keys[step]! / total);
  const sortRun = runSorter(ranks, middle, idDescending, total);
  return {
    count,
    slice(from, to) {
      const found: number[] = [];
      for (let step = from; step < Math.min(to, count); ) {
        // The run of places tied with this one on the first term, sorted by the second term, then id.
        const tied = firstDigit(step);
        let start = step;
        while (start > 0 && firstDigit(start - 1) === tied) start--;
        let end = step + 1;
        while (end < count && firstDigit(end) === tied) end++;
        if (end - start === 1) {
          found.push(placeAt(step++));
          continue;
        }
        const run = Int32Array.from({ length: end - start }, (_, k) => placeAt(start + k));
        sortRun(run);
        for (; step < Math.min(end, to); step++) found.push(run[step - start]!);
      }
      return found;
    },
  };
}

function rankColumn(ranks: Ranks, term: SortTerm): Ranks['name'] {
  return term.field === 'name' ? ranks.name : ranks.updated;
}

/** Each place's rank (reversed when descending) and the place (reversed when id descends) as one number, two digits of base `total`. */
function rankKeys(places: Int32Array, column: Ranks['name'], descending: boolean, idDescending: boolean, total: number): Float64Array {
  const keys = new Float64Array(places.length);
  const top = descending ? total - 1 : 0;
  const sign = descending ? -1 : 1;
  const idTop = idDescending ? total - 1 : 0;
  const idSign = idDescending ? -1 : 1;
  for (let i = 0; i < places.length; i++) {
    const place = places[i]!;
    keys[i] = (top + sign * column[place]!) * total + idTop + idSign * place;
  }
  return keys;
}

/** The place a key of rankKeys holds: its last digit. */
function placeOfKey(key: number, total: number, idDescending: boolean): number {
  const digit = key % total;
  return idDescending ? total - 1 - digit : digit;
}

/** Puts a run of places tied on the first term, ascending, in the order of the terms after it. */
type RunSorter = (run: Int32Array) => void;

/**
 * The run sorter of a walk and of a filtered list alike: by `term`'s rank, then id, as the keys of
 * `rankKeys` sorted by the engine's numeric sort (no comparison called a pair); without a term, by
 * id alone.
 */
function runSorter(ranks: Ranks | undefined, term: SortTerm | undefined, idDescending: boolean, total: number): RunSorter {
  if (term === undefined || ranks === undefined) return (run) => void (idDescending && run.reverse());
  const column = rankColumn(ranks, term);
  return (run) => {
    const keys = rankKeys(run, column, term.descending, idDescending, total).sort();
    for (let i = 0; i < run.length; i++) run[i] = placeOfKey(keys[i]!, total, idDescending);
  };
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
