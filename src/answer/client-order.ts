import type { QueryBundle } from '../bundle/query-bundle.ts';
import type { SortTerm } from './ordering-terms.ts';
import { zeroedUint32 } from '../bundle/scratch-arrays.ts';

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
  return orderRecords({ total: bundle.manifest.clients, fullOrder: (term) => fullOrder(bundle, term), sortKeys: (term) => sortKeys(bundle, term) }, selected, terms);
}

/**
 * What a list's records are sorted by: how many there are (numbered in id order), every record in
 * one term's order (ties by id in the same direction), and one term's sort key of every record.
 */
export interface OrderSource {
  total: number;
  fullOrder(term: SortTerm): Promise<(place: number) => number>;
  sortKeys(term: SortTerm): Promise<TermKeys>;
}

/** The selected records (ascending; undefined: all) in the order of the terms, of any list. */
export async function orderRecords(source: OrderSource, selected: Int32Array | undefined, terms: readonly SortTerm[]): Promise<OrderedClients> {
  const total = source.total;
  const [first] = terms;
  const tieBreak = terms.at(-1)!;
  if (selected === undefined && terms.length <= 2 && first!.descending === tieBreak.descending) {
    return ordered(total, await source.fullOrder(first!));
  }
  const items = selected ?? everyIndex(total);
  if (tieBreak.descending) items.reverse();
  const keyed = terms.slice(0, -1);
  if (keyed.length === 0) return ordered(items.length, (place) => items[place]!);
  const keys = await Promise.all(keyed.map((term) => source.sortKeys(term)));
  const sorted = items.length < 1024 ? compareSort(items, keys) : countingSorts(items, keys);
  return ordered(sorted.length, (place) => sorted[place]!);
}

/** An order of `count` records, the record at each place given by `at` (the registrants list's too). */
export function ordered(count: number, at: (place: number) => number): OrderedClients {
  return {
    count,
    slice(from, to) {
      const indexes: number[] = [];
      for (let place = from; place < Math.min(to, count); place++) indexes.push(at(place));
      return indexes;
    },
  };
}

export function everyIndex(count: number): Int32Array {
  const all = new Int32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/** One term's sort key of every client (by global index), from 0 up to `buckets` - 1, its direction applied. */
export interface TermKeys {
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
    // A name's buckets are as many as the distinct names: reused (scratch-arrays.ts), not made for each sort.
    const starts = zeroedUint32('buckets', buckets + 1);
    for (let i = 0; i < from.length; i++) starts[key[from[i]!]! + 1]!++;
    for (let b = 1; b <= buckets; b++) starts[b]! += starts[b - 1]!;
    for (let i = 0; i < from.length; i++) to[starts[key[from[i]!]!]!++] = from[i]!;
    [from, to] = [to, from];
  }
  return from;
}

/** What is derived once per bundle for sorting: the ranks of names and of dates, and the date orders, each when first needed. */
interface SortData {
  names?: Promise<Ranks>;
  dates?: Promise<Ranks>;
  dateOrders: Partial<Record<'ascending' | 'descending', Int32Array>>;
  keys: Map<string, TermKeys>;
}

/** Each client's rank (by global index) among the distinct values of a field, and how many ranks there are. */
interface Ranks {
  rank: Uint32Array;
  count: number;
}

const sortData = new WeakMap<QueryBundle, SortData>();

function dataOf(bundle: QueryBundle): SortData {
  let data = sortData.get(bundle);
  if (data === undefined) sortData.set(bundle, (data = { dateOrders: {}, keys: new Map() }));
  return data;
}

/** Names ranked from the bundle's name order: equal names (`ties`) share a rank. */
async function nameRanks(bundle: QueryBundle): Promise<Ranks> {
  const { order, ties } = await bundle.nameOrder();
  const rank = new Uint32Array(bundle.manifest.clients);
  let current = -1;
  for (let place = 0; place < order.length; place++) {
    if (ties[place] !== 1) current++;
    rank[order[place]!] = current;
  }
  return { rank, count: current + 1 };
}

/**
 * Dates ranked among the distinct dates, 0 for null (nulls first, whichever the direction): counted
 * by day in one pass, the days a date number YYYYMMDD names laid out 31 to a month.
 */
async function dateRanks(bundle: QueryBundle): Promise<Ranks> {
  const total = bundle.manifest.clients;
  const dates = new Int32Array(total);
  for (const segment of await bundle.segments()) dates.set(segment.date, segment.start);
  // The day a date number names, 31 days to a month: days in order, if not all of them real.
  const day = new Int32Array(total);
  let first = 0x7fffffff;
  let last = -1;
  for (let i = 0; i < total; i++) {
    const date = dates[i]!;
    if (date < 0) {
      day[i] = -1;
      continue;
    }
    const d = ((date / 10000) | 0) * 372 + (((date / 100) | 0) % 100) * 31 + (date % 100);
    day[i] = d;
    if (d < first) first = d;
    if (d > last) last = d;
  }
  const rank = new Uint32Array(total);
  if (last < 0) return { rank, count: 1 };
  // A rank for every day some client has, in day order: a table over the days from the first to the last.
  const ranks = new Uint32Array(last - first + 1);
  for (let i = 0; i < total; i++) if (day[i]! >= 0) ranks[day[i]! - first] = 1;
  let count = 0;
  for (let i = 0; i < ranks.length; i++) if (ranks[i] === 1) ranks[i] = ++count;
  for (let i = 0; i < total; i++) rank[i] = day[i]! < 0 ? 0 : ranks[day[i]! - first]!;
  return { rank, count: count + 1 };
}

async function sortKeys(bundle: QueryBundle, term: SortTerm): Promise<TermKeys> {
  const data = dataOf(bundle);
  const name = `${term.field}${term.descending ? '-' : '+'}`;
  let keys = data.keys.get(name);
  if (keys === undefined) {
    const byName = term.field === 'name';
    const { rank, count: buckets } = await (byName ? (data.names ??= nameRanks(bundle)) : (data.dates ??= dateRanks(bundle)));
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
  const data = dataOf(bundle);
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
