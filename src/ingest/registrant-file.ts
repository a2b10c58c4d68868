import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, type InputProblem } from '../errors.ts';
import { registrantFields } from './record-fields.ts';
import { OLDEST, timestampMicros } from './validate-record.ts';

/**
 * The registrants file: the live list `/api/v1/registrants/` as `sync` saves it beside the clients
 * (one registrant record a line, sync/sync-folder.ts). The build lists these registrants too, those
 * no client embeds included (contract section 10); an input without one lists the registrants the
 * clients embed. Read whole: some tens of thousands of records, a few megabytes.
 */
export const REGISTRANTS_FILE = 'registrants.ndjson';

export interface RegistrantRow {
  id: number;
  /** `dt_updated` as UTC microseconds (the latest copy of a registrant wins, contract section 7). */
  updated: number;
  fields: string;
}

/** Input files split into client records and registrants files (by name). */
export function splitRegistrantFiles(files: readonly string[]): { clientFiles: string[]; registrantFiles: string[] } {
  const isRegistrants = (file: string) => path.basename(file) === REGISTRANTS_FILE;
  return { clientFiles: files.filter((file) => !isRegistrants(file)), registrantFiles: files.filter(isRegistrants) };
}

/** Every registrant of a registrants file; a record that is not one fails the build, naming its line and field. */
export function readRegistrantFile(file: string, problemLimit = 20): RegistrantRow[] {
  const rows: RegistrantRow[] = [];
  const problems: InputProblem[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '' || problems.length >= problemLimit) return;
      const where = { file, line: i + 1 };
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        problems.push({ ...where, message: `not JSON: ${(error as Error).message}` });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push({ ...where, message: 'must be a registrant object' });
        return;
      }
      const record = value as Record<string, unknown>;
      if (!Number.isSafeInteger(record.id) || (record.id as number) < 0) {
        problems.push({ ...where, field: 'id', message: `must be a non-negative integer, got ${JSON.stringify(record.id)}` });
        return;
      }
      const stamp = record.dt_updated ?? null;
      const updated = stamp === null ? OLDEST : typeof stamp === 'string' ? timestampMicros(stamp) : undefined;
      if (updated === undefined) {
        problems.push({ ...where, field: 'dt_updated', message: `must be an ISO 8601 timestamp or null, got ${JSON.stringify(stamp)}` });
        return;
      }
      rows.push({ id: record.id as number, updated, fields: registrantFields(record) });
    });
  if (problems.length > 0) throw new InputError(problems, problems.length >= problemLimit);
  return rows;
}
