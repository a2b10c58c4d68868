import { encodeTextList } from './text-list.ts';
import { decodeSections, encodeSections } from './sections.ts';
import { sortedIndexOf } from './sorted-arrays.ts';

/**
 * A file of records' texts: the clients of one chunk (each with its registrant's id) or the
 * registrants of one pack. A text is the record's fields as JSON text, the part of its body that
 * never changes with the base URL or the format (`ingest/record-fields.ts`), stored once as UTF-8,
 * with where each record's bytes end: a record is decoded when an answer needs it, never the whole file.
 */
export interface RecordTexts {
  readonly count: number;
  readonly ids: Float64Array;
  /** For clients: the id of each one's registrant. */
  readonly registrants: Float64Array | undefined;
  /** The record at `index` (0 to count - 1). */
  text(index: number): string;
  /** The index of the record with `id`, or -1. */
  find(id: number): number;
}

const decoder = new TextDecoder();

export function encodeRecordTexts(records: readonly { id: number; text: string; registrant?: number }[]): Uint8Array {
  const texts = encodeTextList(records.map((record) => record.text));
  const sections: Record<string, Float64Array | Uint32Array | Uint8Array> = { ids: Float64Array.from(records, (record) => record.id) };
  if (records.some((record) => record.registrant !== undefined)) sections.registrants = Float64Array.from(records, (record) => record.registrant ?? -1);
  sections.ends = texts.ends;
  sections.text = texts.bytes;
  return encodeSections({}, sections);
}

export function decodeRecordTexts(bytes: Uint8Array, file: string): RecordTexts {
  const sections = decodeSections(bytes, file);
  const ids = sections.section('ids', Float64Array);
  const ends = sections.section('ends', Uint32Array);
  const text = sections.section('text', Uint8Array);
  if (ends.length !== ids.length || (ids.length > 0 && ends[ends.length - 1] !== text.length - 1)) {
    throw new Error(`${file}: the records' texts do not add up to the text stored`);
  }
  const registrants = sections.has('registrants') ? sections.section('registrants', Float64Array) : undefined;
  return {
    count: ids.length,
    ids,
    registrants,
    text: (index) => decoder.decode(text.subarray(index === 0 ? 0 : ends[index - 1]! + 1, ends[index])),
    find: (id) => sortedIndexOf(ids, id),
  };
}
