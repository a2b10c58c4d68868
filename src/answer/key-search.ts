import { fragmentIndexFor, inWord, nameKey, valueKey, wordKey, type KeyFragment, type ValueField } from '../bundle/key-index.ts';
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
  const one = oneListKey(pattern, words);
  if (one !== undefined) return listOf(fragmentOf, one);
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
  const waves = fromBothEnds([...groups.values()]);
  const wordsAt = { of: wordsOf(pattern), touched: new Set<number>() };
  let found: Matches | undefined;
  for (let from = 0; from < waves.length; from += WAVE) {
    found = await narrowByWave(fragmentOf, waves.slice(from, from + WAVE), found, wordsAt);
    if (found.count === 0) break;
  }
  return distinctLocals(found!);
}

/** The key of the one list that answers a pattern (upper-cased UTF-8, of at most the segment's longest name's bytes): of 1 or 2 bytes, or one of the segment's common `words`; undefined for the trigrams' intersection. */
export function oneListKey(pattern: Uint8Array, words?: readonly string[]): string | undefined {
  if (pattern.length < 3) return nameKey(pattern, 0, pattern.length);
  const word = words === undefined ? undefined : String.fromCharCode(...pattern);
  return word !== undefined && sortedIndexOf(words!, word) >= 0 ? wordKey(word) : undefined;
}

export async function clientsWithValue(fragmentOf: FragmentOf, field: ValueField, value: string | number): Promise<Int32Array> {
  return listOf(fragmentOf, valueKey(field, value));
}

async function listOf(fragmentOf: FragmentOf, key: string): Promise<Int32Array> {
  const list = await findList(fragmentOf, key);
  return list === undefined ? new Int32Array(0) : list.fragment.locals(list.index);
}

/** The fragment that holds `key`'s list and the list's index in it; undefined when no fragment holds it (no client has the key). */
export async function findList(fragmentOf: FragmentOf, key: string): Promise<{ fragment: KeyFragment; index: number } | undefined> {
  const fragment = await fragmentOf(key);
  const index = fragment?.indexOf(key) ?? -1;
  return index < 0 ? undefined : { fragment: fragment!, index };
}

/**
 * The fragments in the order their waves read them: from both ends of the pattern inwards (first, last,
 * second, second to last, ...), so that a wave holds trigrams of words far apart, which narrow the
 * matches the most together (a pattern found nowhere is found so in the fewest waves).
 */
function fromBothEnds<T>(items: readonly T[]): T[] {
  const order: T[] = [];
  for (let low = 0, high = items.length - 1; low <= high; low++, high--) order.push(...(low === high ? [items[low]!] : [items[low]!, items[high]!]));
  return order;
}

/** Each byte's word in a pattern (runs of letters, digits and bytes beyond ASCII, numbered from 0), -1 for a byte between words. */
function wordsOf(pattern: Uint8Array): Int32Array {
  const of = new Int32Array(pattern.length).fill(-1);
  let word = -1;
  for (let at = 0; at < pattern.length; at++) {
    if (!inWord(pattern[at]!)) continue;
    if (at === 0 || !inWord(pattern[at - 1]!)) word++;
    of[at] = word;
  }
  return of;
}

interface Step {
  fragment: KeyFragment;
  index: number;
  offset: number;
  bytes: number;
}

/** The matches left after the keys of a wave of fragments (each key's fragment asked for once, all at once). */
async function narrowByWave(fragmentOf: FragmentOf, groups: readonly Map<string, number[]>[], found: Matches | undefined, words: { of: Int32Array; touched: Set<number> }): Promise<Matches> {
  const reads = groups.map((keys) => fragmentOf(keys.keys().next().value!));
  // Every read of the wave is waited for, even once a key is found absent: a read left running when the
  // answer is sent is cancelled in a Worker, and its fragment, never kept, would be read again by every
  // search that asks for it (each unique search matching nothing read one more file, and kept none).
  await Promise.allSettled(reads);
  const steps: Step[] = [];
  for (const [i, keys] of groups.entries()) {
    const fragment = await reads[i]!;
    for (const [key, offsets] of keys) {
      const index = fragment?.indexOf(key) ?? -1;
      if (index < 0) return { locals: new Int32Array(0), starts: new Int32Array(0), count: 0 };
      for (const offset of offsets) steps.push({ fragment: fragment!, index, offset, bytes: fragment!.listBytes(index) });
    }
  }
  for (const { fragment, index, offset } of narrowingOrder(steps, words)) {
    found = fragment.matchesAt(index, offset, found);
    if (found.count === 0) return found;
  }
  return found!;
}

/**
 * The order in which a wave's trigrams narrow the matches. A list's bytes are about its length, and
 * the first list is decoded whole: the shortest first. The others cost about the blocks that hold a
 * match, so what matters is how soon the matches shrink, and the trigrams of one word mostly hold the
 * same names (a whole name's WRI, RIG and HT of WRIGHT keep each other's 1,370 matches; one trigram of
 * its next word leaves 6). So, shortest first, each trigram of a word that no trigram before it has
 * touched (across waves), then the others, shortest first.
 */
function narrowingOrder(steps: Step[], words: { of: Int32Array; touched: Set<number> }): Step[] {
  steps.sort((a, b) => a.bytes - b.bytes);
  const fresh: Step[] = [];
  const rest: Step[] = [];
  for (const step of steps) {
    let touched = false;
    for (let at = step.offset; at < step.offset + 3; at++) touched ||= words.touched.has(words.of[at]!);
    if (touched) rest.push(step);
    else {
      fresh.push(step);
      for (let at = step.offset; at < step.offset + 3; at++) if (words.of[at]! >= 0) words.touched.add(words.of[at]!);
    }
  }
  return fresh.concat(rest);
}

function distinctLocals(found: Matches): Int32Array {
  const out = new Int32Array(found.count);
  let count = 0;
  for (let i = 0; i < found.count; i++) if (count === 0 || out[count - 1] !== found.locals[i]) out[count++] = found.locals[i]!;
  return out.slice(0, count);
}
