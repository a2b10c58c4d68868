import { decodeSections, encodeSections, type SectionArray } from './sections.ts';
import type { TextList } from './text-list.ts';

/**
 * The registrants as the lists read them, one small file per column, the registrants in id order
 * (their place): an answer reads the columns its filters and ordering use, never the rest (contract
 * section 10; a cold first answer within 1 MiB at the registry's size, about 17,000 registrants).
 *
 * - `ids`: each registrant's id (a place's id, and the places of the ids a client names);
 * - `codes`: its state, country and ppb_country as the place of its code among the build's choices
 *   (NO_CODE: none, or not a choice, which no filter's value can name);
 * - `updated`: `dt_updated` as an instant, microseconds since 1970 (NaN: none);
 * - `names`: its upper-cased name (search-text.ts) for `registrant_name`, of clients and registrants;
 * - `nameOrder`, `updatedOrder`: the places in the order of the name (by code point) or of the
 *   instant, ties by id, with `ties` marking a place equal to the one before.
 */
export interface RegistrantColumnTypes {
  ids: Float64Array;
  codes: { state: Uint16Array; country: Uint16Array; ppbCountry: Uint16Array };
  updated: Float64Array;
  names: TextList;
  nameOrder: PlaceOrder;
  updatedOrder: PlaceOrder;
}

export type RegistrantColumn = (typeof REGISTRANT_COLUMNS)[number];

export interface PlaceOrder {
  order: Uint32Array;
  ties: Uint8Array;
}

export const NO_CODE = 0xffff;

/** The registrants' columns, a file each. */
export const REGISTRANT_COLUMNS = ['ids', 'codes', 'updated', 'names', 'nameOrder', 'updatedOrder'] as const satisfies readonly (keyof RegistrantColumnTypes)[];

/** The file of a column, under bundle/. */
export function registrantColumnFile(column: RegistrantColumn): string {
  return `registrants/columns/${column.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.bin`;
}

/** Each column as its file's sections. */
function sectionsOf(column: RegistrantColumn, value: RegistrantColumnTypes[RegistrantColumn]): Record<string, SectionArray> {
  if (value instanceof Float64Array) return { [column]: value };
  if ('bytes' in value) return { names: value.bytes, nameEnds: value.ends };
  return { ...value };
}

export function encodeRegistrantColumn<K extends RegistrantColumn>(column: K, value: RegistrantColumnTypes[K]): Uint8Array {
  return encodeSections({ column }, sectionsOf(column, value));
}

export function decodeRegistrantColumn<K extends RegistrantColumn>(column: K, bytes: Uint8Array, file: string): RegistrantColumnTypes[K] {
  const sections = decodeSections(bytes, file);
  const decoded: { [C in RegistrantColumn]: () => RegistrantColumnTypes[C] } = {
    ids: () => sections.section('ids', Float64Array),
    codes: () => ({ state: sections.section('state', Uint16Array), country: sections.section('country', Uint16Array), ppbCountry: sections.section('ppbCountry', Uint16Array) }),
    updated: () => sections.section('updated', Float64Array),
    names: () => ({ bytes: sections.section('names', Uint8Array), ends: sections.section('nameEnds', Uint32Array) }),
    nameOrder: () => ({ order: sections.section('order', Uint32Array), ties: sections.section('ties', Uint8Array) }),
    updatedOrder: () => ({ order: sections.section('order', Uint32Array), ties: sections.section('ties', Uint8Array) }),
  };
  return decoded[column]() as RegistrantColumnTypes[K];
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

/** The places of `count` records in the order of `compare` (ties by place, which is id order). */
export function placeOrder(count: number, compare: (a: number, b: number) => number): PlaceOrder {
  const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => compare(a, b) || a - b);
  const ties = new Uint8Array(count);
  for (let p = 1; p < count; p++) ties[p] = compare(order[p - 1]!, order[p]!) === 0 ? 1 : 0;
  return { order, ties };
}
