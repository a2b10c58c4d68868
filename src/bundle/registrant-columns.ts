import { decodeSections, encodeSections } from './sections.ts';

/**
 * What the registrants list filters and sorts on (contract section 10), one column per field, the
 * registrants in id order as in the registrant index: each one's state, country and ppb_country as
 * the place of its code among the build's choices (NO_CODE: none, or not a choice, which no filter's
 * value can name), `dt_updated` as an instant (microseconds since 1970; NaN when it has none), and
 * the rank of its name in code point order (equal names share one). No names: a request that does not
 * search them reads this file only, a fraction of the index's size.
 */
export interface RegistrantColumns {
  readonly ids: Float64Array;
  readonly state: Uint16Array;
  readonly country: Uint16Array;
  readonly ppbCountry: Uint16Array;
  readonly updated: Float64Array;
  readonly nameRank: Uint32Array;
}

export const NO_CODE = 0xffff;

export function encodeRegistrantColumns(columns: RegistrantColumns): Uint8Array {
  return encodeSections({}, { ...columns });
}

export function decodeRegistrantColumns(bytes: Uint8Array, file: string): RegistrantColumns {
  const sections = decodeSections(bytes, file);
  const columns = {
    ids: sections.section('ids', Float64Array),
    state: sections.section('state', Uint16Array),
    country: sections.section('country', Uint16Array),
    ppbCountry: sections.section('ppbCountry', Uint16Array),
    updated: sections.section('updated', Float64Array),
    nameRank: sections.section('nameRank', Uint32Array),
  };
  for (const [name, column] of Object.entries(columns)) {
    if (column.length !== columns.ids.length) throw new Error(`${file}: ${name} holds ${column.length} registrants, ids ${columns.ids.length}`);
  }
  return columns;
}

/** Compares two texts by code point (UTF-16's order differs past U+FFFF), as SQLite's BINARY collation does. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
