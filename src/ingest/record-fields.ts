import { CLIENT_FIELD_KEYS, REGISTRANT_FIELD_KEYS } from '../contract.ts';
import { jsonText } from '../json-text.ts';

/**
 * The part of a record's JSON that never changes with the base URL or the format: every key after
 * `url` (and before `registrant` for a client), as comma-separated `"key":value` pairs. Each record is
 * serialized once, here; pages and record files are then made by concatenation.
 *
 * A key missing from the input is written as null, like a null in the input.
 */
export function clientFields(record: Record<string, unknown>): string {
  return fieldsText(record, CLIENT_FIELD_KEYS);
}

export function registrantFields(registrant: Record<string, unknown>): string {
  return fieldsText(registrant, REGISTRANT_FIELD_KEYS);
}

function fieldsText(source: Record<string, unknown>, keys: readonly string[]): string {
  const ordered: Record<string, unknown> = {};
  for (const key of keys) ordered[key] = source[key] ?? null;
  return jsonText(ordered).slice(1, -1);
}
