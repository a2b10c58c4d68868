import { decodeSections, encodeSections } from './sections.ts';
import { encodeTextList, textStart, type TextList } from './text-list.ts';
import { TRIGRAM, trigramKey } from './search-text.ts';
import { sortedIndexOf } from './sorted-arrays.ts';

/**
 * One segment of the query bundle's index: what the filters and orderings read of a run of clients
 * in id order (contract section 9), as columns. A client's place in the run is its `local` index.
 *
 * - `registrant`: its registrant's id; `date`: its effective date as the number YYYYMMDD, or -1 for
 *   null (so number order is date order, nulls first);
 * - the four codes the choice filters compare (`state`, `country`, `ppbState`, `ppbCountry`), each an
 *   index into the segment's own table of the values met (`null` first);
 * - `names`: each name upper-cased (`searchText`) in UTF-8, followed by a NUL byte, which no search
 *   value holds (it is a 400), so no match can run from one name into the next;
 * - a trigram index of the names' bytes: for each trigram, the clients whose name has it, ascending.
 */
export const CODE_FIELDS = ['state', 'country', 'ppbState', 'ppbCountry'] as const;
export type CodeField = (typeof CODE_FIELDS)[number];

export interface SegmentRow {
  registrant: number;
  /** YYYYMMDD, or -1 for null. */
  date: number;
  codes: Record<CodeField, string | null>;
  /** The name upper-cased for searching. */
  searchName: string;
}

export interface IndexSegment {
  /** The global index of its first client: clients are numbered in id order across the bundle. */
  readonly start: number;
  readonly count: number;
  readonly registrant: Float64Array;
  readonly date: Int32Array;
  readonly codes: Record<CodeField, Uint16Array>;
  /** The index of `value` in a code field's table, or -1 when no client of the segment has it. */
  codeIndex(field: CodeField, value: string): number;
  readonly names: TextList;
  /** The clients whose name holds every trigram of `pattern` (UTF-8, at least three bytes), ascending. */
  trigramCandidates(pattern: Uint8Array): Uint16Array;
}

/** Local indexes are 16 bits: a segment holds at most this many clients. */
export const MAX_SEGMENT = 0x10000;

export function encodeIndexSegment(start: number, rows: readonly SegmentRow[]): Uint8Array {
  if (rows.length > MAX_SEGMENT) throw new Error(`an index segment holds at most ${MAX_SEGMENT} clients, not ${rows.length}`);
  const tables = {} as Record<CodeField, (string | null)[]>;
  const codes = {} as Record<CodeField, Uint16Array>;
  for (const field of CODE_FIELDS) {
    const table: (string | null)[] = [null];
    const at = new Map<string | null, number>([[null, 0]]);
    codes[field] = Uint16Array.from(rows, (row) => {
      const value = row.codes[field];
      let index = at.get(value);
      if (index === undefined) at.set(value, (index = table.push(value) - 1));
      return index;
    });
    tables[field] = table;
  }
  const names = encodeTextList(rows.map((row) => row.searchName));
  const trigrams = trigramIndex(names);
  return encodeSections(
    { start, count: rows.length, tables },
    {
      registrant: Float64Array.from(rows, (row) => row.registrant),
      date: Int32Array.from(rows, (row) => row.date),
      ...Object.fromEntries(CODE_FIELDS.map((field) => [field, codes[field]])),
      nameEnds: names.ends,
      names: names.bytes,
      trigramKeys: trigrams.keys,
      trigramStarts: trigrams.starts,
      postings: trigrams.postings,
    },
  );
}

/** For each trigram met, the names that have it (each name once), as three arrays. */
function trigramIndex(names: TextList): { keys: Uint32Array; starts: Uint32Array; postings: Uint16Array } {
  const lists = new Map<number, number[]>();
  for (let local = 0; local < names.ends.length; local++) {
    const end = names.ends[local]!;
    for (let at = textStart(names, local); at + TRIGRAM <= end; at++) {
      const key = trigramKey(names.bytes, at);
      let list = lists.get(key);
      if (list === undefined) lists.set(key, (list = []));
      // Names come in order, so a name already listed is the list's last.
      if (list.at(-1) !== local) list.push(local);
    }
  }
  const keys = Uint32Array.from(lists.keys()).sort();
  const starts = new Uint32Array(keys.length + 1);
  let total = 0;
  keys.forEach((key, i) => {
    starts[i] = total;
    total += lists.get(key)!.length;
  });
  starts[keys.length] = total;
  const postings = new Uint16Array(total);
  keys.forEach((key, i) => postings.set(lists.get(key)!, starts[i]));
  return { keys, starts, postings };
}

export function decodeIndexSegment(bytes: Uint8Array, file: string): IndexSegment {
  const sections = decodeSections(bytes, file);
  const { start, count, tables } = sections.fields as { start: number; count: number; tables: Record<CodeField, (string | null)[]> };
  const codes = Object.fromEntries(CODE_FIELDS.map((field) => [field, sections.section(field, Uint16Array)])) as Record<CodeField, Uint16Array>;
  const keys = sections.section('trigramKeys', Uint32Array);
  const starts = sections.section('trigramStarts', Uint32Array);
  const postings = sections.section('postings', Uint16Array);
  const lookups = Object.fromEntries(CODE_FIELDS.map((field) => [field, new Map(tables[field].map((value, i) => [value, i]))])) as Record<CodeField, Map<string | null, number>>;
  return {
    start,
    count,
    registrant: sections.section('registrant', Float64Array),
    date: sections.section('date', Int32Array),
    codes,
    codeIndex: (field, value) => lookups[field].get(value) ?? -1,
    names: { bytes: sections.section('names', Uint8Array), ends: sections.section('nameEnds', Uint32Array) },
    trigramCandidates: (pattern) => candidates(keys, starts, postings, pattern),
  };
}

/**
 * The intersection of the posting lists of the pattern's trigrams, shortest first. A long pattern's
 * trigrams overlap: every third one (and the last) covers it, which bounds the work whatever its length.
 */
function candidates(keys: Uint32Array, starts: Uint32Array, postings: Uint16Array, pattern: Uint8Array): Uint16Array {
  const lists: Uint16Array[] = [];
  const last = pattern.length - TRIGRAM;
  for (let at = 0; at <= last; at = at === last ? at + 1 : Math.min(at + TRIGRAM, last)) {
    const found = sortedIndexOf(keys, trigramKey(pattern, at));
    if (found < 0) return EMPTY;
    lists.push(postings.subarray(starts[found]!, starts[found + 1]!));
    if (lists.length > 64) break; // a pattern this long is checked whole against each candidate anyway
  }
  lists.sort((a, b) => a.length - b.length);
  let result = lists[0]!;
  for (let i = 1; i < lists.length && result.length > 0; i++) result = intersect(result, lists[i]!);
  return result;
}

const EMPTY = new Uint16Array(0);

function intersect(a: Uint16Array, b: Uint16Array): Uint16Array {
  const out = new Uint16Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}
