import path from 'node:path';
import { InputError, type InputProblem } from '../errors.ts';
import { clientFields, registrantFields } from '../render/record-fields.ts';
import type { FilterCodes, RecordStore } from '../store/record-store.ts';
import { readRecordFile } from './read-record-file.ts';
import { validateClient, type ValidClient } from './validate-record.ts';

export interface LoadOptions {
  /** Stop listing problems after this many; the build fails either way, unless `skipInvalid`. */
  problemLimit: number;
  /** Load the valid records and skip the others (counted and listed) instead of failing. */
  skipInvalid?: boolean;
  /** Called now and then with the records read so far, and the file being read (the `fileNumber`th of them). */
  onProgress?: (recordsRead: number, file: string, fileNumber: number) => void;
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

const BATCH = 2000;

/**
 * Reads every file, validates every record and loads the valid ones into the store, a batch per
 * transaction. Problems are collected (up to the limit) rather than thrown at the first, so that one
 * run shows the user everything to fix; any problem fails the load once reading is done.
 */
export async function loadRecords(files: readonly string[], store: RecordStore, options: LoadOptions): Promise<LoadStats> {
  const cwd = options.cwd ?? process.cwd();
  const problems: InputProblem[] = [];
  let truncated = false;
  let recordsRead = 0;
  let skipped = 0;
  let batch: ValidClient[] = [];
  const flush = () => {
    store.transaction(() => batch.forEach((client) => storeClient(store, client)));
    batch = [];
  };
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
        batch.push(result.client); // once input is bad (and not skipped), only look for more problems
      }
      if (batch.length >= BATCH) flush();
      if (recordsRead % 1000 === 0) options.onProgress?.(recordsRead, name, i + 1);
    }
  }
  if (problems.length > 0 && !options.skipInvalid) throw new InputError(problems, truncated);
  flush();
  options.onProgress?.(recordsRead, '', files.length);
  return { files: files.length, recordsRead, skipped, problems, problemsTruncated: truncated };
}

function storeClient(store: RecordStore, client: ValidClient): void {
  store.addRegistrant(client.registrantId, client.registrantUpdated, registrantFields(client.registrant));
  store.addClient(client.id, client.name, client.effectiveDate, client.registrantId, clientFields(client.record), filterCodes(client.record));
}

/** The codes the state and country filters compare (contract section 8): strings only, else none. */
export function filterCodes(record: Record<string, unknown>): FilterCodes {
  const code = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { state: code(record.state), country: code(record.country), ppb_state: code(record.ppb_state), ppb_country: code(record.ppb_country) };
}
