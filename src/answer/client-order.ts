import type { QueryBundle } from '../bundle/query-bundle.ts';
import { upperBound } from '../bundle/sorted-arrays.ts';
import type { SortTerm } from './ordering-terms.ts';

/**
 * The selected clients in the order of the request's terms (contract section 9): names by code point,
 * dates with nulls first whichever the direction, the last term always on `id`.
 *
 * Every client in one term's order is read off a precomputed order (names: the bundle's; dates:
 * counted once from the index). Anything else is sorted: few clients by comparing, many by a counting
 * sort per term, last term first (each pass stable), in time linear in the clients.
 */
export interface OrderedClients {
  readonly count: number;
  /** The global indexes of the clients from place `from` to `to` (exclusive). */
  slice(from: number, to: number): number[];
}

export async function orderClients(bundle: QueryBundle, selected: Int32Array | undefined, terms: readonly SortTerm[]): Promise<OrderedClients> {
  const total = bundle.manifest.clients;
  const [first] = terms;
  const tieBreak = terms.at(-1)!;
  if (selected === undefined && terms.length <= 2 && first!.descending === tieBreak.descending) {
    return ordered(total, await fullOrder(bundle, first!));
  }
  const items = selected ?? everyIndex(total);
  if (tieBreak.descending) items.reverse();
  const keyed = terms.slice(0, -1);
  if (keyed.length === 0) return ordered(items.length, (place) => items[place]!);
  const keys = await Promise.all(keyed.map((term) => sortKeys(bundle, term)));
  const sorted = items.length < 1024 ? compareSort(items, keys) : countingSorts(items, keys);
  return ordered(sorted.length, (place) => sorted[place]!);
}

function ordered(count: number, at: (place: number) => number): OrderedClients {
  return {
    count,
    slice(from, to) {
      const indexes: number[] = [];
      for (let place = from; place < Math.min(to, count); place++) indexes.push(at(place));
      return indexes;
    },
  };
}

function everyIndex(count: number): Int32Array {
  const all = new Int32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/** One term's sort key of every client (by global index), from 0 up to `buckets` - 1, its direction applied. */
interface TermKeys {
  key: Uint32Array;
  buckets: number;
}

function compareSort(items: Int32Array, keys: readonly TermKeys[]): Int32Array {
  // Array.prototype.sort is stable: clients equal on every term keep their order, which is the tie-break's.
  return Int32Array.from(
    Array.from(items).sort((a, b) => {
      for (const { key } of keys) {
        const difference = key[a]! - key[b]!;
        if (difference !== 0) return difference;
      }
      return 0;
    }),
  );
}

function countingSorts(items: Int32Array, keys: readonly TermKeys[]): Int32Array {
  let from: Int32Array = items;
  let to: Int32Array = new Int32Array(items.length);
  for (let t = keys.length - 1; t >= 0; t--) {
    const { key, buckets } = keys[t]!;
    const starts = new Uint32Array(buckets + 1);
    for (let i = 0; i < from.length; i++) starts[key[from[i]!]! + 1]!++;
    for (let b = 1; b <= buckets; b++) starts[b]! += starts[b - 1]!;
    for (let i = 0; i < from.length; i++) to[starts[key[from[i]!]!]!++] = from[i]!;
    [from, to] = [to, from];
  }
  return from;
}

/** What is derived once per bundle for sorting: the ranks of names and dates, and the date orders. */
interface SortData {
  nameRank: Uint32Array;
  names: number;
  dateRank: Uint32Array;
  dates: number;
  dateOrders: Partial<Record<'ascending' | 'descending', Int32Array>>;
  keys: Map<string, TermKeys>;
}

const sortData = new WeakMap<QueryBundle, Promise<SortData>>();

function dataOf(bundle: QueryBundle): Promise<SortData> {
  let data = sortData.get(bundle);
  if (data === undefined) {
    data = deriveSortData(bundle);
    sortData.set(bundle, data);
  }
  return data;
}

async function deriveSortData(bundle: QueryBundle): Promise<SortData> {
  const total = bundle.manifest.clients;
  const { order, ties } = await bundle.nameOrder();
  const nameRank = new Uint32Array(total);
  let rank = -1;
  for (let place = 0; place < order.length; place++) {
    if (ties[place] !== 1) rank++;
    nameRank[order[place]!] = rank;
  }
  // Dates as ranks among the distinct dates, 0 for null: nulls first, whichever the direction.
  const dates = new Int32Array(total);
  for (const segment of await bundle.segments()) dates.set(segment.date, segment.start);
  const distinct = uniqueSorted(dates);
  const dateRank = new Uint32Array(total);
  for (let i = 0; i < total; i++) dateRank[i] = upperBound(distinct, dates[i]!);
  // Rank 0 is null (-1, below every date): `upperBound` counts it among the distinct values only when a client has it.
  return { nameRank, names: rank + 1, dateRank, dates: distinct.length + 1, dateOrders: {}, keys: new Map() };
}

async function sortKeys(bundle: QueryBundle, term: SortTerm): Promise<TermKeys> {
  const data = await dataOf(bundle);
  const name = `${term.field}${term.descending ? '-' : '+'}`;
  let keys = data.keys.get(name);
  if (keys === undefined) {
    const byName = term.field === 'name';
    const rank = byName ? data.nameRank : data.dateRank;
    const buckets = byName ? data.names : data.dates;
    let key = rank;
    if (term.descending) {
      // Ranks count down from the top; a null date (rank 0) stays first.
      key = new Uint32Array(rank.length);
      for (let i = 0; i < rank.length; i++) key[i] = byName ? buckets - 1 - rank[i]! : rank[i] === 0 ? 0 : buckets - rank[i]!;
    }
    data.keys.set(name, (keys = { key, buckets }));
  }
  return keys;
}

/** Every client in one term's order, ties by id in the same direction: the client at each place. */
async function fullOrder(bundle: QueryBundle, { field, descending }: SortTerm): Promise<(place: number) => number> {
  const last = bundle.manifest.clients - 1;
  if (field === 'id') return descending ? (place) => last - place : (place) => place;
  if (field === 'name') {
    const { order } = await bundle.nameOrder();
    return descending ? (place) => order[last - place]! : (place) => order[place]!;
  }
  const data = await dataOf(bundle);
  const direction = descending ? 'descending' : 'ascending';
  let order = data.dateOrders[direction];
  if (order === undefined) {
    const items = everyIndex(bundle.manifest.clients);
    if (descending) items.reverse();
    data.dateOrders[direction] = order = countingSorts(items, [await sortKeys(bundle, { field: 'date', descending })]);
  }
  const dates = order;
  return (place) => dates[place]!;
}

/** The distinct non-negative values of an array, ascending. */
function uniqueSorted(values: Int32Array): Int32Array {
  const sorted = values.slice().sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]! >= 0 && (count === 0 || sorted[i] !== sorted[count - 1])) sorted[count++] = sorted[i]!;
  }
  return sorted.subarray(0, count);
}
