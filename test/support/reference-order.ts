import type { SortTerm } from '../../src/answer/ordering-terms.ts';

/**
 * The reference the order fragments (src/answer/fragment-order.ts) are tested against: a list's
 * records in the order of the request's terms (contract sections 9 and 10), sorted in memory from
 * whole columns, as the answerer sorted them before the fragments: names by code point, dates with
 * nulls first whichever the direction, the last term always on `id`.
 *
 * Every record in one term's order is read off a precomputed order. Anything else is sorted: few
 * records by comparing, many by a counting sort per term, last term first (each pass stable), in time
 * linear in the records.
 */
export interface OrderedClients {
  readonly count: number;
  /** The global indexes of the clients from place `from` to `to` (exclusive). */
  slice(from: number, to: number): number[];
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
    const starts = new Uint32Array(buckets + 1);
    for (let i = 0; i < from.length; i++) starts[key[from[i]!]! + 1]!++;
    for (let b = 1; b <= buckets; b++) starts[b]! += starts[b - 1]!;
    for (let i = 0; i < from.length; i++) to[starts[key[from[i]!]!]!++] = from[i]!;
    [from, to] = [to, from];
  }
  return from;
}
