import { fragmentIndexFor, nameKey } from '../bundle/key-index.ts';

/**
 * Which trigrams of a pattern (their offsets, ascending) a search intersects: the first (offset 0),
 * the last (length - 3), and between them no gap of more than 3, so that together they cover every
 * byte. Any such cover proves the pattern (key-search.ts); they differ in the fragments they read.
 *
 * Without the segment's `firstKeys`: every third offset, and the last. With them: the cover whose
 * trigrams fall in the fewest fragments (then the fewest trigrams), found by a shortest path over the
 * offsets where a trigram in a fragment not yet read costs more than any number of trigrams; run
 * again with the fragments of the first path taken as read, to count a fragment met twice once. A
 * whole name of 30 bytes needs 10 trigrams, which would otherwise read up to 10 fragments.
 * Undefined when a trigram falls before the first fragment: no client's name holds it.
 */
export function coverOffsets(pattern: Uint8Array, firstKeys?: readonly string[]): number[] | undefined {
  const last = pattern.length - 3;
  if (firstKeys === undefined) {
    const offsets: number[] = [];
    for (let offset = 0; offset < last; offset += 3) offsets.push(offset);
    return [...offsets, last];
  }
  const fragmentAt = Array.from({ length: last + 1 }, (_, offset) => fragmentIndexFor(firstKeys, nameKey(pattern, offset, 3)));
  if (fragmentAt.includes(-1)) return undefined;
  const read = new Set([fragmentAt[0]!, fragmentAt[last]!]);
  const first = shortestCover(fragmentAt, read);
  for (const offset of first) read.add(fragmentAt[offset]!);
  return shortestCover(fragmentAt, read);
}

function shortestCover(fragmentAt: readonly number[], read: ReadonlySet<number>): number[] {
  const last = fragmentAt.length - 1;
  const newFragment = fragmentAt.length + 1;
  const cost = new Float64Array(last + 1);
  const previous = new Int32Array(last + 1).fill(-1);
  for (let offset = 1; offset <= last; offset++) {
    cost[offset] = Infinity;
    for (let from = Math.max(0, offset - 3); from < offset; from++) {
      if (cost[from]! < cost[offset]!) [cost[offset], previous[offset]] = [cost[from]!, from];
    }
    cost[offset] = cost[offset]! + 1 + (read.has(fragmentAt[offset]!) ? 0 : newFragment);
  }
  const offsets: number[] = [];
  for (let offset = last; offset >= 0; offset = previous[offset]!) offsets.push(offset);
  return offsets.reverse();
}
