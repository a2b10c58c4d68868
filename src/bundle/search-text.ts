import { UPPER_CASE_PAIRS } from './upper-case-pairs.ts';

/**
 * The text a name search compares (contract section 9): the live service runs
 * `UPPER(name) LIKE UPPER('%value%')` on PostgreSQL, which upper-cases one code point at a time. The
 * build upper-cases every name once, into the query bundle; the answerer upper-cases the value asked
 * for; then the search is a plain substring test (`%`, `_` and `\` are ordinary characters).
 *
 * No code point of the table changes plane (a BMP code point upper-cases to a BMP one), so an
 * upper-cased text has the same UTF-16 length as the original.
 */
/**
 * The tables, made when a text first holds a character past ASCII: a fresh edge instance answers its
 * first request within a few milliseconds of CPU, and a loop over 65,536 code units at its start,
 * for every request, would be a good part of them (most searches are ASCII, and most answers none).
 */
let tables: { bmp: Uint16Array; astral: Map<number, number> } | undefined;

function upperTables(): { bmp: Uint16Array; astral: Map<number, number> } {
  if (tables === undefined) {
    const astral = new Map<number, number>();
    for (let i = 0; i < UPPER_CASE_PAIRS.length; i += 2) {
      if (UPPER_CASE_PAIRS[i]! > 0xffff) astral.set(UPPER_CASE_PAIRS[i]!, UPPER_CASE_PAIRS[i + 1]!);
    }
    tables = { bmp: buildBmpTable(), astral };
  }
  return tables;
}

/** An ASCII code unit upper-cased: the table's own mapping of the first 128 (`a` to `z` only: tested). */
function upperAscii(unit: number): number {
  return unit >= 0x61 && unit <= 0x7a ? unit - 0x20 : unit;
}

/** The BMP's upper-casing as a table of code units: 128 KB, read once per character. */
function buildBmpTable(): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let unit = 0; unit < table.length; unit++) table[unit] = unit;
  for (let i = 0; i < UPPER_CASE_PAIRS.length; i += 2) {
    if (UPPER_CASE_PAIRS[i]! <= 0xffff) table[UPPER_CASE_PAIRS[i]!] = UPPER_CASE_PAIRS[i + 1]!;
  }
  return table;
}

/** `text` upper-cased code point by code point, as PostgreSQL's upper() under a libc UTF-8 locale. */
export function searchText(text: string): string {
  // Most names are upper case already: returned as they are, with nothing made.
  let first = 0;
  while (first < text.length) {
    const unit = text.charCodeAt(first);
    if (unit >= 0x80 || upperAscii(unit) !== unit) break;
    first++;
  }
  if (first === text.length) return text;
  let ascii = true;
  for (let at = first; at < text.length && ascii; at++) ascii = text.charCodeAt(at) < 0x80;
  if (ascii) {
    let upper = text.slice(0, first);
    for (let at = first; at < text.length; at++) upper += String.fromCharCode(upperAscii(text.charCodeAt(at)));
    return upper;
  }
  const { bmp: BMP, astral: ASTRAL } = upperTables();
  while (first < text.length) {
    const unit = text.charCodeAt(first);
    if ((unit >= 0xd800 && unit <= 0xdbff) || BMP[unit] !== unit) break;
    first++;
  }
  if (first === text.length) return text;
  let changed = false;
  const units = new Array<number>(text.length);
  for (let at = 0; at < first; at++) units[at] = text.charCodeAt(at);
  for (let at = first; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
      const low = text.charCodeAt(at + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        const point = ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        const upper = ASTRAL.get(point);
        if (upper === undefined) {
          units[at] = unit;
          units[at + 1] = low;
        } else {
          changed = true;
          units[at] = 0xd800 + ((upper - 0x10000) >> 10);
          units[at + 1] = 0xdc00 + ((upper - 0x10000) & 0x3ff);
        }
        at++;
        continue;
      }
    }
    const upper = BMP[unit]!;
    if (upper !== unit) changed = true;
    units[at] = upper;
  }
  return changed ? fromUnits(units) : text;
}

/** A string from code units, in slices: spreading a long array into one call could overflow the stack. */
function fromUnits(units: number[]): string {
  let text = '';
  for (let at = 0; at < units.length; at += 8192) text += String.fromCharCode(...units.slice(at, at + 8192));
  return text;
}

/**
 * The key of the three bytes of UTF-8 text from `at`: the query bundle indexes each name's trigrams
 * of bytes. A substring of code points is a substring of their UTF-8 bytes and the other way round
 * (no character's bytes begin inside another's), so names and values are searched as bytes, never
 * decoded.
 */
export function trigramKey(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
}

/** Patterns shorter than a trigram (in bytes) are found by reading every name. */
export const TRIGRAM = 3;
