import { decodeSections, encodeSections, type SectionArray, type SectionsFile } from './sections.ts';

/**
 * The registrants as the lists read them, one small file per column, the registrants in id order
 * (their place): an answer reads the columns its filters and ordering use, never the rest (contract
 * section 10; a cold first answer within 1 MiB and 30 files at the registry's size, about 17,000
 * registrants, so each column is stored in the narrowest type that holds it).
 *
 * - `ids`: each registrant's id (a place's id, and the places of the ids a client names); stored in
 *   32 bits when every id fits, read as 64-bit numbers;
 * - `filters`: what the list's filters test, in one file (a request of every filter reads one file
 *   instead of two, which keeps the heaviest within 30): its state, country and ppb_country as the
 *   place of its code among the build's choices, 8 bits each while the choices are fewer than 255
 *   (the largest value: none, or not a choice, which no filter's value can name), and `dt_updated`
 *   as an instant, microseconds since 1970 (NaN: none);
 * - `nameOrder`, `updatedOrder`: the places in the order of the name (by code point) or of the
 *   instant, ties by id, with `ties` marking a place equal to the one before; places in 16 bits
 *   while there are at most 65,536 registrants.
 * - `ranks`: each registrant's rank in the name order and in the `dt_updated` order, equal values
 *   sharing one (16 bits while there are at most 65,536 registrants): what a filtered list is sorted
 *   by, and the runs of ties of a walk by the terms after the first (registrant-order.ts).
 *
 * `registrant_name` reads no column: the names are a key index of their own (registrant-keys.ts).
 */
export interface RegistrantColumnTypes {
  ids: Float64Array;
  filters: { state: CodeColumn; country: CodeColumn; ppbCountry: CodeColumn; updated: Float64Array };
  nameOrder: PlaceOrder;
  updatedOrder: PlaceOrder;
  ranks: { name: RankColumn; updated: RankColumn };
}

export type RegistrantColumn = (typeof REGISTRANT_COLUMNS)[number];

export type CodeColumn = Uint8Array | Uint16Array;

export type RankColumn = Uint16Array | Uint32Array;

export interface PlaceOrder {
  order: Uint16Array | Uint32Array;
  ties: Uint8Array;
}

/** The registrants' columns, a file each. */
export const REGISTRANT_COLUMNS = ['ids', 'filters', 'nameOrder', 'updatedOrder', 'ranks'] as const satisfies readonly (keyof RegistrantColumnTypes)[];

/** The stem of a column's file under bundle/ (content-names.ts adds its hash). */
export function registrantColumnStem(column: RegistrantColumn): string {
  return `registrants/columns/${column.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The codes of `values` among `choices`, in the narrowest column that holds them and the mark of none. */
export function codeColumn(values: readonly unknown[], choices: readonly string[]): CodeColumn {
  const column = choices.length < 0xff ? new Uint8Array(values.length) : new Uint16Array(values.length);
  const none = column instanceof Uint8Array ? 0xff : 0xffff;
  values.forEach((value, i) => {
    const at = typeof value === 'string' ? choices.indexOf(value) : -1;
    column[i] = at < 0 ? none : at;
  });
  return column;
}

/** Each column as its file's sections, each in the narrowest type that holds it. */
function sectionsOf(column: RegistrantColumn, value: RegistrantColumnTypes[RegistrantColumn]): Record<string, SectionArray> {
  if (value instanceof Float64Array) return { [column]: column === 'ids' && value.every((id) => Number.isInteger(id) && id >= 0 && id <= 0xffffffff) ? Uint32Array.from(value) : value };
  if ('order' in value) return { order: value.order.length <= 0x10000 ? Uint16Array.from(value.order) : value.order, ties: value.ties };
  return { ...value };
}

export function encodeRegistrantColumn<K extends RegistrantColumn>(column: K, value: RegistrantColumnTypes[K]): Uint8Array {
  return encodeSections({ column }, sectionsOf(column, value));
}

export function decodeRegistrantColumn<K extends RegistrantColumn>(column: K, bytes: Uint8Array, file: string): RegistrantColumnTypes[K] {
  const sections = decodeSections(bytes, file);
  const order = (): PlaceOrder => {
    const { order, ties } = { order: unsigned(sections, 'order'), ties: sections.section('ties', Uint8Array) };
    if (order instanceof Uint8Array || ties.length !== order.length) throw new Error(`${file}: ${order.length} registrants in order but ${ties.length} ties`);
    return { order, ties };
  };
  const ranks = () => {
    const [name, updated] = [unsigned(sections, 'name'), unsigned(sections, 'updated')];
    if (name instanceof Uint8Array || updated instanceof Uint8Array || name.length !== updated.length) throw new Error(`${file}: ${name.length} ranks by name but ${updated.length} by dt_updated`);
    return { name, updated };
  };
  const filters = () => {
    const code = (name: string) => {
      const codes = unsigned(sections, name);
      if (codes instanceof Uint32Array) throw new Error(`${file}: section ${name} holds u32`);
      return codes;
    };
    const found = { state: code('state'), country: code('country'), ppbCountry: code('ppbCountry'), updated: sections.section('updated', Float64Array) };
    const { length } = found.updated;
    if (found.state.length !== length || found.country.length !== length || found.ppbCountry.length !== length) throw new Error(`${file}: its filters' columns differ in length`);
    return found;
  };
  const decoded: { [C in RegistrantColumn]: () => RegistrantColumnTypes[C] } = {
    ids: () => (sections.type('ids') === 'u32' ? Float64Array.from(sections.section('ids', Uint32Array)) : sections.section('ids', Float64Array)),
    filters,
    nameOrder: order,
    updatedOrder: order,
    ranks,
  };
  return decoded[column]() as RegistrantColumnTypes[K];
}

/** A section of whole numbers, in the width it was written in. */
function unsigned(sections: SectionsFile, name: string): Uint8Array | Uint16Array | Uint32Array {
  const type = sections.type(name);
  if (type === 'u8') return sections.section(name, Uint8Array);
  if (type === 'u16') return sections.section(name, Uint16Array);
  return sections.section(name, Uint32Array);
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

/** Each place's rank in an order, equal values (`ties`) sharing one, in the narrowest column that holds them. */
export function ranksOf({ order, ties }: PlaceOrder): RankColumn {
  const ranks = new Uint32Array(order.length);
  let rank = -1;
  for (let p = 0; p < order.length; p++) {
    if (ties[p] !== 1) rank++;
    ranks[order[p]!] = rank;
  }
  return order.length <= 0x10000 ? Uint16Array.from(ranks) : ranks;
}

/** The places of `count` records in the order of `compare` (ties by place, which is id order). */
export function placeOrder(count: number, compare: (a: number, b: number) => number): PlaceOrder {
  const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => compare(a, b) || a - b);
  const ties = new Uint8Array(count);
  for (let p = 1; p < count; p++) ties[p] = compare(order[p - 1]!, order[p]!) === 0 ? 1 : 0;
  return { order, ties };
}
