import { decodeSections, encodeSections } from './sections.ts';
import { decodePostingListInto, encodePostingLists, intersectInPlace, postingEntry, postingListBytes, type PostingLists } from './posting-lists.ts';
import { scratchUint16 } from './scratch-arrays.ts';
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
  /** 32-bit where every id of the segment fits (registrant ids do, today), else 64-bit floats. */
  readonly registrant: Uint32Array | Float64Array;
  readonly date: Int32Array;
  /** One byte each where the segment met at most 256 values of the field, else two. */
  readonly codes: Record<CodeField, Uint8Array | Uint16Array>;
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
  const codes = {} as Record<CodeField, Uint8Array | Uint16Array>;
  for (const field of CODE_FIELDS) {
    const table: (string | null)[] = [null];
    const at = new Map<string | null, number>([[null, 0]]);
    const indexes = rows.map((row) => {
      const value = row.codes[field];
      let index = at.get(value);
      if (index === undefined) at.set(value, (index = table.push(value) - 1));
      return index;
    });
    codes[field] = table.length <= 0x100 ? Uint8Array.from(indexes) : Uint16Array.from(indexes);
    tables[field] = table;
  }
  const names = encodeTextList(rows.map((row) => row.searchName));
  const trigrams = trigramIndex(names);
  return encodeSections(
    { start, count: rows.length, tables },
    {
      registrant: rows.every((row) => row.registrant >= 0 && row.registrant <= 0xffffffff) ? Uint32Array.from(rows, (row) => row.registrant) : Float64Array.from(rows, (row) => row.registrant),
      date: Int32Array.from(rows, (row) => row.date),
      ...Object.fromEntries(CODE_FIELDS.map((field) => [field, codes[field]])),
      nameEnds: names.ends,
      names: names.bytes,
      trigramKeys: trigrams.keys,
      trigramStarts: trigrams.starts,
      postings: trigrams.bytes,
    },
  );
}

/** For each trigram met, the names that have it (each name once). */
function trigramIndex(names: TextList): PostingLists {
  const entries = new Float64Array(Math.max(0, names.bytes.length - 2));
  let count = 0;
  for (let local = 0; local < names.ends.length; local++) {
    const end = names.ends[local]!;
    for (let at = textStart(names, local); at + TRIGRAM <= end; at++) entries[count++] = postingEntry(trigramKey(names.bytes, at), local);
  }
  return encodePostingLists(entries.subarray(0, count));
}

export function decodeIndexSegment(bytes: Uint8Array, file: string): IndexSegment {
  const sections = decodeSections(bytes, file);
  const { start, count, tables } = sections.fields as { start: number; count: number; tables: Record<CodeField, (string | null)[]> };
  const codes = Object.fromEntries(
    CODE_FIELDS.map((field) => [field, sections.type(field) === 'u8' ? sections.section(field, Uint8Array) : sections.section(field, Uint16Array)]),
  ) as Record<CodeField, Uint8Array | Uint16Array>;
  const lists: PostingLists = { keys: sections.section('trigramKeys', Uint32Array), starts: sections.section('trigramStarts', Uint32Array), bytes: sections.section('postings', Uint8Array) };
  const lookups = Object.fromEntries(CODE_FIELDS.map((field) => [field, new Map(tables[field].map((value, i) => [value, i]))])) as Record<CodeField, Map<string | null, number>>;
  return {
    start,
    count,
    registrant: sections.type('registrant') === 'u32' ? sections.section('registrant', Uint32Array) : sections.section('registrant', Float64Array),
    date: sections.section('date', Int32Array),
    codes,
    codeIndex: (field, value) => lookups[field].get(value) ?? -1,
    names: { bytes: sections.section('names', Uint8Array), ends: sections.section('nameEnds', Uint32Array) },
    trigramCandidates: (pattern) => candidates(lists, pattern),
  };
}

/**
 * The intersection of the posting lists of the pattern's trigrams, shortest first. A long pattern's
 * trigrams overlap: every third one (and the last) covers it, which bounds the work whatever its length.
 */
function candidates(lists: PostingLists, pattern: Uint8Array): Uint16Array {
  const found: number[] = [];
  const last = pattern.length - TRIGRAM;
  for (let at = 0; at <= last; at = at === last ? at + 1 : Math.min(at + TRIGRAM, last)) {
    const index = sortedIndexOf(lists.keys, trigramKey(pattern, at));
    if (index < 0) return EMPTY;
    found.push(index);
    if (found.length > 64) break; // a pattern this long is checked whole against each candidate anyway
  }
  // A list's bytes are about its length: decode the shortest first, and stop once nothing is left.
  found.sort((a, b) => postingListBytes(lists, a) - postingListBytes(lists, b));
  // Decoded into scratch arrays (scratch-arrays.ts), the first list narrowed in place by each next one.
  const result = scratchUint16('posting', postingListBytes(lists, found[0]!));
  let count = decodePostingListInto(lists, found[0]!, result);
  for (let i = 1; i < found.length && count > 0; i++) {
    const next = scratchUint16('nextPosting', postingListBytes(lists, found[i]!));
    count = intersectInPlace(result, count, next, decodePostingListInto(lists, found[i]!, next));
  }
  return result.slice(0, count);
}

const EMPTY = new Uint16Array(0);
