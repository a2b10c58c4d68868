import path from 'node:path';
import { InputError, type InputProblem } from '../errors.ts';
import type { FilterCodes } from '../store/record-store.ts';
import { readRecordFile } from './read-record-file.ts';
import { clientFields, registrantFields } from './record-fields.ts';
import { validateClient, type ValidClient } from './validate-record.ts';

export interface ReadOptions {
  /** Stop listing problems after this many; the build fails either way, unless `skipInvalid`. */
  problemLimit: number;
  /** Load the valid records and skip the others (counted and listed) instead of failing. */
  skipInvalid?: boolean;
  /** How files are named in messages: relative to this folder. */
  cwd?: string;
}

export interface LoadStats {
  files: number;
  /** Every record found: valid, invalid, or a line that is not JSON. */
  recordsRead: number;
  /** Records skipped as invalid (with `skipInvalid`), and the problems listed for them. */
  skipped: number;
  problems: InputProblem[];
  problemsTruncated: boolean;
}

/**
 * A valid client as the store takes it (`RecordStore.addRegistrant`, `addClient`): its fields and its
 * registrant's serialized, its filter codes picked. Plain values, so that rows cross between threads.
 */
export interface ClientRow {
  id: number;
  name: string;
  effectiveDate: string | null;
  fields: string;
  codes: FilterCodes;
  registrantId: number;
  registrantUpdated: number;
  registrantFields: string;
}

/** Rows go out in batches of this many (a transaction each, in the store). */
export const ROW_BATCH = 2000;

/**
 * Reads every file, validates every record and hands the valid ones out as rows, in the order of the
 * input (a later copy of a client replaces an earlier one), a batch at a time. Problems are collected
 * (up to the limit) rather than thrown at the first, so that one run shows the user everything to
 * fix; any problem fails the read once it is done, unless `skipInvalid`.
 */
export async function readClientRows(
  files: readonly string[],
  options: ReadOptions,
  emit: (rows: ClientRow[]) => void,
  onProgress?: (recordsRead: number, file: string, fileNumber: number) => void,
): Promise<LoadStats> {
  const cwd = options.cwd ?? process.cwd();
  const problems: InputProblem[] = [];
  let truncated = false;
  let recordsRead = 0;
  let skipped = 0;
  let batch: ClientRow[] = [];
  const report = (found: InputProblem) => {
    if (problems.length < options.problemLimit) problems.push(found);
    else truncated = true;
  };

  for (const [i, file] of files.entries()) {
    const name = path.relative(cwd, file) || file;
    for await (const item of readRecordFile(file, name)) {
      recordsRead++;
      if (item.kind === 'problem') {
        report(item.problem);
        skipped++;
        continue;
      }
      const result = validateClient(item.value, item);
      if (!result.ok) {
        result.problems.forEach(report);
        skipped++;
      } else if (problems.length === 0 || options.skipInvalid) {
        // Once input is bad (and not skipped), only look for more problems.
        batch.push(clientRow(result.client));
      }
      if (batch.length >= ROW_BATCH) {
        emit(batch);
        batch = [];
      }
      if (recordsRead % 1000 === 0) onProgress?.(recordsRead, name, i + 1);
    }
  }
  if (problems.length > 0 && !options.skipInvalid) throw new InputError(problems, truncated);
  if (batch.length > 0) emit(batch);
  onProgress?.(recordsRead, '', files.length);
  return { files: files.length, recordsRead, skipped, problems, problemsTruncated: truncated };
}

/** A valid client as the store takes it: its fields and its registrant's serialized, its filter codes picked. */
export function clientRow(client: ValidClient): ClientRow {
  return {
    id: client.id,
    name: client.name,
    effectiveDate: client.effectiveDate,
    fields: clientFields(client.record),
    codes: filterCodes(client.record),
    registrantId: client.registrantId,
    registrantUpdated: client.registrantUpdated,
    registrantFields: registrantFields(client.registrant),
  };
}

/** The codes the state and country filters compare (contract section 8): strings only, else none. */
export function filterCodes(record: Record<string, unknown>): FilterCodes {
  const code = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { state: code(record.state), country: code(record.country), ppb_state: code(record.ppb_state), ppb_country: code(record.ppb_country) };
}
