import { fragmentIndexFor, nameKey, valueKey, wordKey, type KeyFragment, type ValueField } from '../bundle/key-index.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import type { Matches } from '../bundle/position-lists.ts';
import { coverOffsets } from './cover-trigrams.ts';

/**
 * The searches of a segment's key index (bundle/key-index.ts), reading only the fragments that hold
 * their keys. A name search of 3 bytes or more intersects the positional lists of trigrams covering
 * the pattern, each shifted back by its offset in the pattern: a client and a start position left
 * after all of them holds every byte of the pattern there, so the answer is exact without a name read.
 */
export type FragmentOf = (key: string) => Promise<KeyFragment | undefined>;

/** Fragments read at once: a long pattern (a whole name, a hostile value) reads in waves, and stops at the first wave that leaves nothing. */
const WAVE = 6;

/**
 * The local indexes (ascending) of the segment's clients whose upper-cased name holds `pattern`
 * (upper-cased UTF-8, non-empty), exactly. Given the segment's `firstKeys` (fragmentIndexFor), the
 * trigrams are chosen to fall in as few fragments as they can (cover-trigrams.ts), and a trigram
 * that no fragment can hold answers without a read. A pattern that is one of the segment's common
 * `words` (ascending) is that word's list, read alone.
 */
export async function namesHolding(fragmentOf: FragmentOf, pattern: Uint8Array, maxNameBytes: number, firstKeys?: readonly string[], words?: readonly string[]): Promise<Int32Array> {
  if (pattern.length === 0) throw new TypeError('Expected a pattern of at least one byte');
  if (pattern.length > maxNameBytes) return new Int32Array(0);
  if (pattern.length < 3) return listOf(fragmentOf, nameKey(pattern, 0, pattern.length));
  const word = words === undefined ? undefined : String.fromCharCode(...pattern);
  if (word !== undefined && sortedIndexOf(words!, word) >= 0) return listOf(fragmentOf, wordKey(word));
  const offsets = coverOffsets(pattern, firstKeys);
  if (offsets === undefined) return new Int32Array(0);
  // Each trigram's key once, with every offset it covers ("AAAA" is "AAA" at 0 and 1), grouped by fragment where known.
  const groups = new Map<string | number, Map<string, number[]>>();
  for (const offset of offsets) {
    const key = nameKey(pattern, offset, 3);
    const group = firstKeys === undefined ? key : fragmentIndexFor(firstKeys, key);
    const keys = groups.get(group) ?? groups.set(group, new Map()).get(group)!;
    keys.set(key, [...(keys.get(key) ?? []), offset]);
  }
  const waves = [...groups.values()];
  let found: Matches | undefined;
  for (let from = 0; from < waves.length; from += WAVE) {
    found = await narrowByWave(fragmentOf, waves.slice(from, from + WAVE), found);
    if (found.count === 0) break;
  }
  return distinctLocals(found!);
}

export async function clientsWithValue(fragmentOf: FragmentOf, field: ValueField, value: string | number): Promise<Int32Array> {
  return listOf(fragmentOf, valueKey(field, value));
}

async function listOf(fragmentOf: FragmentOf, key: string): Promise<Int32Array> {
  const fragment = await fragmentOf(key);
  const index = fragment?.indexOf(key) ?? -1;
  return index < 0 ? new Int32Array(0) : fragment!.locals(index);
}

/** The matches left after the keys of a wave of fragments (each key's fragment asked for once, all at once). */
async function narrowByWave(fragmentOf: FragmentOf, groups: readonly Map<string, number[]>[], found: Matches | undefined): Promise<Matches> {
  const reads = groups.map((keys) => fragmentOf(keys.keys().next().value!));
  // Every read of the wave is waited for, even once a key is found absent: a read left running when the
  // answer is sent is cancelled in a Worker, and its fragment, never kept, would be read again by every
  // search that asks for it (each unique search matching nothing read one more file, and kept none).
  await Promise.allSettled(reads);
  const lists: { fragment: KeyFragment; index: number; offsets: number[] }[] = [];
  for (const [i, keys] of groups.entries()) {
    const fragment = await reads[i]!;
    for (const [key, offsets] of keys) {
      const index = fragment?.indexOf(key) ?? -1;
      if (index < 0) return { locals: new Int32Array(0), starts: new Int32Array(0), count: 0 };
      lists.push({ fragment: fragment!, index, offsets });
    }
  }
  // A list's bytes are about its length: the shortest first, so the matches shrink soonest.
  lists.sort((a, b) => a.fragment.listBytes(a.index) - b.fragment.listBytes(b.index));
  for (const { fragment, index, offsets } of lists) {
    for (const offset of offsets) {
      found = fragment.matchesAt(index, offset, found);
      if (found.count === 0) return found;
    }
  }
  return found!;
}

function distinctLocals(found: Matches): Int32Array {
  const out = new Int32Array(found.count);
  let count = 0;
  for (let i = 0; i < found.count; i++) if (count === 0 || out[count - 1] !== found.locals[i]) out[count++] = found.locals[i]!;
  return out.slice(0, count);
}
