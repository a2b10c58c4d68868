import { decodeSections, encodeSections, type SectionsFile } from './sections.ts';
import { sortedIndexOf } from './sorted-arrays.ts';
import { encodeTextList, textStart } from './text-list.ts';

/**
 * A file of records' texts: the clients of one chunk (each with its registrant's id, and the texts of
 * those registrants embedded beside them) or the registrants of one pack. A record's text is its fields as JSON text, `"key":value,...` in the
 * contract's key order, the part of its body that never changes with the base URL or the format
 * (`ingest/record-fields.ts`).
 *
 * The keys are the same in every record, and more than half of a client's text: the file stores
 * them once (`keys`), and each record's values alone, in UTF-8, with where each value ends in the
 * record's decoded text. A record is decoded when an answer needs it (one decoding, then the keys and
 * values spliced, and kept), never the whole file.
 */
export interface RecordTexts {
  readonly count: number;
  readonly ids: Float64Array;
  /** For clients: the id of each one's registrant. */
  readonly registrants: Float64Array | undefined;
  /**
   * The record at `index` (0 to count - 1); with `replaced`, the values it names (by key, as JSON text)
   * in place of the record's own (a registrant's fields changed since its chunk was written: the overlay).
   */
  text(index: number, replaced?: Readonly<Record<string, string>>): string;
  /** The index of the record with `id`, or -1. */
  find(id: number): number;
  /**
   * In a client chunk: the texts of the registrants its clients embed, so that a page of clients reads
   * their chunks and nothing else (a page of 25 in name order meets 25 chunks and as many registrants).
   */
  readonly embedded: RecordTexts | undefined;
}

interface Part {
  keys: readonly string[];
  records: readonly { id: number; text: string; registrant?: number }[];
}

const decoder = new TextDecoder();

export function encodeRecordTexts(keys: readonly string[], records: Part['records'], embedded?: Part): Uint8Array {
  const sections = partSections('', { keys, records });
  if (embedded !== undefined) Object.assign(sections, partSections(EMBEDDED, embedded));
  return encodeSections(embedded === undefined ? { keys } : { keys, embeddedKeys: embedded.keys }, sections);
}

/** The prefix of the embedded part's sections. */
const EMBEDDED = 'embedded.';

function partSections(prefix: string, { keys, records }: Part): Record<string, Float64Array | Uint32Array | Uint8Array> {
  const valueEnds = new Uint32Array(records.length * keys.length);
  const prefixes = keyPrefixes(keys);
  const values = records.map((record, r) => {
    const split = splitFields(record.text, prefixes);
    if (split === undefined) throw new Error(`record ${record.id}: its fields are not the keys ${keys.join(', ')} in order`);
    let end = 0;
    split.forEach((value, k) => (valueEnds[r * keys.length + k] = end += value.length));
    return split.join('');
  });
  const list = encodeTextList(values);
  const sections: Record<string, Float64Array | Uint32Array | Uint8Array> = { [`${prefix}ids`]: Float64Array.from(records, (record) => record.id) };
  if (records.some((record) => record.registrant !== undefined)) sections[`${prefix}registrants`] = Float64Array.from(records, (record) => record.registrant ?? -1);
  sections[`${prefix}ends`] = list.ends;
  sections[`${prefix}valueEnds`] = valueEnds;
  sections[`${prefix}text`] = list.bytes;
  return sections;
}

/** A previous build's file decoded, or undefined when it does not decode (a rebuild then does not reuse it). */
export function reusableRecordTexts(bytes: Uint8Array, file: string): RecordTexts | undefined {
  try {
    return decodeRecordTexts(bytes, file);
  } catch {
    return undefined;
  }
}

export function decodeRecordTexts(bytes: Uint8Array, file: string): RecordTexts {
  const sections = decodeSections(bytes, file);
  const part = readPart(sections, '', sections.fields.keys as string[], file);
  const embeddedKeys = sections.fields.embeddedKeys as string[] | undefined;
  return embeddedKeys === undefined ? part : { ...part, embedded: readPart(sections, EMBEDDED, embeddedKeys, file) };
}

function readPart(sections: SectionsFile, prefix: string, keys: readonly string[], file: string): RecordTexts {
  const ids = sections.section(`${prefix}ids`, Float64Array);
  const list = { ends: sections.section(`${prefix}ends`, Uint32Array), bytes: sections.section(`${prefix}text`, Uint8Array) };
  const valueEnds = sections.section(`${prefix}valueEnds`, Uint32Array);
  if (list.ends.length !== ids.length || valueEnds.length !== ids.length * keys.length || (ids.length > 0 && list.ends[ids.length - 1] !== list.bytes.length - 1)) {
    throw new Error(`${file}: the records' texts do not add up to the text stored`);
  }
  const prefixes = keyPrefixes(keys);
  const registrants = sections.has(`${prefix}registrants`) ? sections.section(`${prefix}registrants`, Float64Array) : undefined;
  return {
    count: ids.length,
    ids,
    registrants,
    text(index, replaced) {
      // Made each time, not kept: a record's text takes a microsecond to make, and kept texts (a chunk's
      // clients, a pack's registrants) would be the collector's to copy and keep, answer after answer.
      const values = decoder.decode(list.bytes.subarray(textStart(list, index), list.ends[index]));
      let text = '';
      let start = 0;
      for (let k = 0; k < prefixes.length; k++) {
        const end = valueEnds[index * prefixes.length + k]!;
        text += prefixes[k]! + (replaced?.[keys[k]!] ?? values.slice(start, end));
        start = end;
      }
      return text;
    },
    find: (id) => sortedIndexOf(ids, id),
    embedded: undefined,
  };
}

/** What goes before each value in a record's text: its key, after a comma but for the first. */
function keyPrefixes(keys: readonly string[]): string[] {
  return keys.map((key, k) => `${k === 0 ? '' : ','}${JSON.stringify(key)}:`);
}

/** The values (JSON text) of a record's fields text with exactly these keys in order; undefined when it has others. */
export function fieldValues(keys: readonly string[], text: string): string[] | undefined {
  return splitFields(text, keyPrefixes(keys));
}

/** The values of a record's fields text, `"key":value,...` with exactly these keys (`keyPrefixes`) in order; undefined when it is not. */
function splitFields(text: string, prefixes: readonly string[]): string[] | undefined {
  const values: string[] = [];
  let at = 0;
  for (const prefix of prefixes) {
    if (!text.startsWith(prefix, at)) return undefined;
    at += prefix.length;
    const end = jsonValueEnd(text, at);
    values.push(text.slice(at, end));
    at = end;
  }
  return at === text.length ? values : undefined;
}

/** Where the JSON value starting at `start` ends: past a string (escapes and all), or the end of an object, array or literal. */
function jsonValueEnd(text: string, start: number): number {
  const first = text[start];
  // A string, most values: its closing quote is the first one not escaped (an odd run of backslashes before it).
  if (first === '"') return stringEnd(text, start);
  // A number, true, false or null: up to the comma before the next key.
  if (first !== '{' && first !== '[') {
    const comma = text.indexOf(',', start);
    return comma < 0 ? text.length : comma;
  }
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (char === '"') at = stringEnd(text, at) - 1;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  return text.length;
}

/** Where the JSON string starting at `start` (its opening quote) ends: one past its closing quote. */
function stringEnd(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}
