import { decodeSections, encodeSections } from './sections.ts';
import { bitmapOf, buildLists, decodeLocals, type AddOccurrence, type Bitmap } from './key-lists.ts';
import { buildPositionLists, confirmMatchesAt, decodeOccurrences, matchesAt, type Matches, type Occurrences } from './position-lists.ts';
import { upperBound } from './sorted-arrays.ts';
import { encodeTextList, textStart, type TextList } from './text-list.ts';

/**
 * A segment's key index: sorted string keys, each with the list of the segment's clients (local
 * indexes) it names, cut by key range into fragment files of about 64 KB, so that an answer reads
 * only the fragments of its own keys (as Pagefind reads its index's chunks). One key space, ordered
 * by plain string comparison (`<`), the same on the build's side and the reader's (`fragmentIndexFor`):
 *
 * - `1X`, `2XY`, `3XYZ`: the 1, 2 and 3 bytes X, Y, Z of the UTF-8 of some client's upper-cased name,
 *   each byte written as the character of its value (U+0000 to U+00FF), so that key order is byte
 *   order and an ASCII key reads as itself (`3ASS`). Lists of 1- and 2-byte keys hold each client
 *   once; lists of 3-byte keys hold every occurrence with its byte position, so that a search of the
 *   trigrams covering a pattern, at aligned positions, proves the whole pattern (position-lists.ts).
 *   Each name is indexed alone: no key spans two names.
 * - `4WORD`: for each common word of the segment's names (a run of letters, digits or non-ASCII bytes
 *   that at least one name in `WORD_SHARE` holds, 3 bytes or more, in the same byte characters), the
 *   clients whose name holds it anywhere (as a substring, as the positional search finds it). A search
 *   of exactly that word, the heaviest a fresh instance meets (`ASSOCIATION` holds 22,426 names of
 *   134,719), reads one list instead of decoding and intersecting the positional lists of its
 *   trigrams: tens of thousands of occurrences each. The manifest lists each segment's words.
 * - `state=NV`, `registrant=401105130`, ...: the clients having that value of a field (`valueKey`).
 */
export type ValueField = 'state' | 'country' | 'ppbState' | 'ppbCountry' | 'registrant';
export const VALUE_FIELDS: readonly ValueField[] = ['state', 'country', 'ppbState', 'ppbCountry', 'registrant'];

export interface SegmentKeyRows {
  /** Each client's name upper-cased (searchText), in local order. */
  names: readonly string[];
  /** Each client's value of each field, in local order; null is not indexed (no filter asks for it). */
  values: Record<ValueField, readonly (string | number | null)[]>;
}

export interface KeyFragmentFile {
  firstKey: string;
  data: Uint8Array;
}

export const KEY_FRAGMENT_BYTES = 64 * 1024;

/** A word held by at least one name in this many is common: its list is kept (61 words of the registry's names). */
export const WORD_SHARE = 64;

/** The key of `length` (1 to 3) bytes of UTF-8 from `at`. */
export function nameKey(bytes: Uint8Array, at: number, length: number): string {
  if (length === 1) return String.fromCharCode(0x31, bytes[at]!);
  if (length === 2) return String.fromCharCode(0x32, bytes[at]!, bytes[at + 1]!);
  return String.fromCharCode(0x33, bytes[at]!, bytes[at + 1]!, bytes[at + 2]!);
}

/** The key of a common word's list (`4WORD`), from the word's bytes in key characters. */
export function wordKey(word: string): string {
  return `4${word}`;
}

/** A number is its decimal text (registrant ids are numbers): the key of a value as a filter names it. */
export function valueKey(field: ValueField, value: string | number): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`Expected a finite number or a string as the ${field} of a key, not ${value}`);
  return `${field}=${value}`;
}

/** Which fragment (index into firstKeys, sorted ascending) can hold `key`: the last firstKey <= key; -1 if none. */
export function fragmentIndexFor(firstKeys: readonly string[], key: string): number {
  return upperBound(firstKeys, key) - 1;
}

/**
 * The segment's key index, cut by key range into fragments, in key order; and the longest name in
 * UTF-8 bytes. Cut into fragments of about `targetBytes` (a list bigger than that alone), or into
 * exactly `{ fragments: n }` of about equal bytes, a number the build can know before it has the keys
 * (its progress counts every file to a total known in advance): where a list bigger than the share
 * takes several shares, the fragments left over come last, empty, after every key (`PAST_EVERY_KEY`).
 */
export function encodeKeyIndex(rows: SegmentKeyRows, cut: number | { fragments: number } = KEY_FRAGMENT_BYTES): { fragments: KeyFragmentFile[]; maxNameBytes: number; words: string[] } {
  for (const field of VALUE_FIELDS) {
    if (rows.values[field].length !== rows.names.length) throw new Error(`key index: ${rows.values[field].length} values of ${field} for ${rows.names.length} names`);
  }
  const names = encodeTextList(rows.names);
  let maxNameBytes = 0;
  for (let local = 0; local < names.ends.length; local++) maxNameBytes = Math.max(maxNameBytes, names.ends[local]! - textStart(names, local));
  const words = commonWords(names);
  const entries = [...nameEntries(names), ...wordEntries(names, words), ...VALUE_FIELDS.flatMap((field) => valueEntries(field, rows.values[field]))];
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { fragments: typeof cut === 'number' ? cutFragments(entries, cut) : cutInto(entries, cut.fragments), maxNameBytes, words };
}

/** The first key of an empty fragment: after every key (keys are characters below U+0100), so no search reads it. */
export const PAST_EVERY_KEY = '\uffff';

/** Exactly `count` fragments: consecutive runs of about equal bytes, then empty ones. */
function cutInto(entries: readonly Entry[], count: number): KeyFragmentFile[] {
  const size = (entry: Entry) => entry.key.length + 8 + entry.list.length;
  const total = entries.reduce((sum, entry) => sum + size(entry), 0);
  const fragments: KeyFragmentFile[] = [];
  let from = 0;
  let before = 0;
  const share = total / count;
  entries.forEach((entry, i) => {
    // An entry starts a new fragment where the bytes before it reach the next share, and a list bigger
    // than a share is alone (it takes the fragments of the shares it spans): a search of its key reads
    // it and nothing beside it.
    const big = size(entry) >= share || size(entries[i - 1] ?? entry) >= share;
    if (i > from && fragments.length < count - 1 && (big || before >= (fragments.length + 1) * share)) {
      fragments.push(encodeFragment(entries.slice(from, i)));
      from = i;
    }
    before += size(entry);
  });
  if (from < entries.length) fragments.push(encodeFragment(entries.slice(from)));
  while (fragments.length < count) fragments.push({ ...encodeFragment([]), firstKey: PAST_EVERY_KEY });
  return fragments;
}

interface Entry {
  key: string;
  list: Uint8Array;
}

/** Every 1-, 2- and 3-byte key of the names. */
function nameEntries(names: TextList): Entry[] {
  const entries: Entry[] = [];
  for (const length of [1, 2] as const) {
    const lists = buildLists(1 << (8 * length), (add) => visitNames(names, length, (key, local) => add(key, local, 0)));
    lists.forEach((list, key) => {
      if (list.length > 0) entries.push({ key: keyOfRun(key, length), list });
    });
  }
  // Trigrams met are few of the 16 million possible: each is numbered in the order met.
  const ids = new Map<number, number>();
  visitNames(names, 3, (key) => {
    if (!ids.has(key)) ids.set(key, ids.size);
  });
  const lists = buildPositionLists(ids.size, (add: AddOccurrence) => visitNames(names, 3, (key, local, position) => add(ids.get(key)!, local, position)));
  for (const [key, id] of ids) entries.push({ key: keyOfRun(key, 3), list: lists[id]! });
  return entries;
}

/** Whether a byte is part of a word: a letter, a digit, or a byte of a character beyond ASCII. */
export const inWord = (byte: number) => (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte >= 0x80;

/** The words of 3 bytes or more that at least one name in `WORD_SHARE` holds, ascending, in key characters. */
function commonWords(names: TextList): string[] {
  const { bytes, ends } = names;
  const held = new Map<string, number>();
  for (let local = 0; local < ends.length; local++) {
    const seen = new Set<string>();
    for (let at = textStart(names, local), end = ends[local]!; at < end; ) {
      const start = at;
      while (at < end && inWord(bytes[at]!)) at++;
      if (at - start >= 3) seen.add(String.fromCharCode(...bytes.subarray(start, at)));
      if (at === start) at++;
    }
    for (const word of seen) held.set(word, (held.get(word) ?? 0) + 1);
  }
  return [...held].filter(([, count]) => count * WORD_SHARE >= ends.length).map(([word]) => word).sort();
}

/** Each common word's list: the names that hold it anywhere (inside a longer word too). */
function wordEntries(names: TextList, words: readonly string[]): Entry[] {
  const texts = Array.from(names.ends, (end, local) => String.fromCharCode(...names.bytes.subarray(textStart(names, local), end)));
  const holders = words.map((word) => texts.flatMap((text, local) => (text.includes(word) ? [local] : [])));
  const lists = buildLists(words.length, (add) => holders.forEach((locals, id) => locals.forEach((local) => add(id, local, 0))));
  return words.map((word, id) => ({ key: wordKey(word), list: lists[id]! }));
}

/** The key of a run of `length` bytes read as one number (`visitNames`). */
function keyOfRun(run: number, length: number): string {
  const bytes = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--, run >>>= 8) bytes[i] = run & 0xff;
  return nameKey(bytes, 0, length);
}

/** Each run of `length` bytes of each name, as a number, in local order then position order. */
function visitNames(names: TextList, length: number, visit: (key: number, local: number, position: number) => void): void {
  const { bytes, ends } = names;
  for (let local = 0; local < ends.length; local++) {
    const start = textStart(names, local);
    for (let at = start; at + length <= ends[local]!; at++) {
      let key = 0;
      for (let i = 0; i < length; i++) key = (key << 8) | bytes[at + i]!;
      visit(key, local, at - start);
    }
  }
}

function valueEntries(field: ValueField, values: readonly (string | number | null)[]): Entry[] {
  const ids = new Map<string, number>();
  const keyOf = values.map((value) => {
    if (value === null) return -1;
    const key = valueKey(field, value);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  });
  const lists = buildLists(ids.size, (add) => keyOf.forEach((id, local) => id >= 0 && add(id, local, 0)));
  return [...ids].map(([key, id]) => ({ key, list: lists[id]! }));
}

/** Consecutive runs of entries of about `targetBytes` each (what a key and its list take in a file). */
function cutFragments(entries: readonly Entry[], targetBytes: number): KeyFragmentFile[] {
  const fragments: KeyFragmentFile[] = [];
  let from = 0;
  let size = 0;
  entries.forEach((entry, i) => {
    const entrySize = entry.key.length + 8 + entry.list.length;
    if (i > from && size + entrySize > targetBytes) {
      fragments.push(encodeFragment(entries.slice(from, i)));
      [from, size] = [i, 0];
    }
    size += entrySize;
  });
  if (from < entries.length) fragments.push(encodeFragment(entries.slice(from)));
  return fragments;
}

/**
 * A fragment file (sections.ts): its keys' characters one after another (one byte each where all are
 * below U+0100, as name keys are), where each key ends, where each list starts, and the lists.
 */
function encodeFragment(entries: readonly Entry[]): KeyFragmentFile {
  const characters = entries.reduce((sum, entry) => sum + entry.key.length, 0);
  const wide = entries.some((entry) => /[^\u0000-\u00ff]/.test(entry.key));
  const keyChars = wide ? new Uint16Array(characters) : new Uint8Array(characters);
  const keyEnds = new Uint32Array(entries.length);
  const listStarts = new Uint32Array(entries.length + 1);
  const lists = new Uint8Array(entries.reduce((sum, entry) => sum + entry.list.length, 0));
  let at = 0;
  entries.forEach(({ key, list }, i) => {
    for (let c = 0; c < key.length; c++) keyChars[at++] = key.charCodeAt(c);
    keyEnds[i] = at;
    lists.set(list, listStarts[i]!);
    listStarts[i + 1] = listStarts[i]! + list.length;
  });
  return { firstKey: entries[0]?.key ?? PAST_EVERY_KEY, data: encodeSections({ kind: 'keys' }, { keyChars, keyEnds, listStarts, lists }) };
}

/** A decoded fragment: views of its file, decoded a list at a time as a search asks. */
export interface KeyFragment {
  readonly keyCount: number;
  keyAt(index: number): string;
  /** Where `key` is among the fragment's keys (ascending), or -1. */
  indexOf(key: string): number;
  /** The bytes of the list at `index`: what decoding it costs, so that a search decodes the shortest first. */
  listBytes(index: number): number;
  /** The list at `index` of a 1- or 2-byte name key or a value key: ascending local indexes. */
  locals(index: number): Int32Array;
  /** That list's bits and count, when it is kept as a bitmap (key-lists.ts), undecoded: bit k of byte j is local index `first` + 8j + k. */
  bitmap(index: number): Bitmap | undefined;
  /** The list at `index` of a 3-byte name key: every occurrence, by local index then byte position. */
  occurrences(index: number): Occurrences;
  /** The matches of the 3-byte key at `index` found at `offset` of a pattern; given `within`, those of it that key confirms, in place (position-lists.ts). */
  matchesAt(index: number, offset: number, within?: Matches): Matches;
}

export function decodeKeyFragment(bytes: Uint8Array, file: string): KeyFragment {
  const sections = decodeSections(bytes, file);
  if (sections.fields['kind'] !== 'keys') throw new Error(`${file}: not a fragment of a key index (kind ${JSON.stringify(sections.fields['kind'])})`);
  const keyChars = sections.type('keyChars') === 'u16' ? sections.section('keyChars', Uint16Array) : sections.section('keyChars', Uint8Array);
  const keyEnds = sections.section('keyEnds', Uint32Array);
  const listStarts = sections.section('listStarts', Uint32Array);
  const lists = sections.section('lists', Uint8Array);
  if (listStarts.length !== keyEnds.length + 1 || listStarts[keyEnds.length]! > lists.length || keyEnds[keyEnds.length - 1]! > keyChars.length) {
    throw new Error(`${file}: its keys and lists do not agree`);
  }
  const keyStart = (index: number) => (index === 0 ? 0 : keyEnds[index - 1]!);
  /** The order of the key at `index` and `key`, by UTF-16 code units as `<` compares strings. */
  const compare = (index: number, key: string): number => {
    const start = keyStart(index);
    const length = keyEnds[index]! - start;
    for (let c = 0; c < length && c < key.length; c++) {
      const difference = keyChars[start + c]! - key.charCodeAt(c);
      if (difference !== 0) return difference;
    }
    return length - key.length;
  };
  return {
    keyCount: keyEnds.length,
    keyAt: (index) => String.fromCharCode(...keyChars.subarray(keyStart(index), keyEnds[index]!)),
    indexOf(key) {
      let low = 0;
      let high = keyEnds.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const order = compare(middle, key);
        if (order < 0) low = middle + 1;
        else if (order > 0) high = middle - 1;
        else return middle;
      }
      return -1;
    },
    listBytes: (index) => listStarts[index + 1]! - listStarts[index]!,
    locals: (index) => decodeLocals(lists, listStarts[index]!, listStarts[index + 1]!, file),
    bitmap: (index) => bitmapOf(lists, listStarts[index]!, listStarts[index + 1]!),
    occurrences: (index) => decodeOccurrences(lists, listStarts[index]!, listStarts[index + 1]!, file),
    matchesAt: (index, offset, within) =>
      within === undefined ? matchesAt(lists, listStarts[index]!, listStarts[index + 1]!, offset, file) : confirmMatchesAt(lists, listStarts[index]!, listStarts[index + 1]!, offset, within, file),
  };
}
