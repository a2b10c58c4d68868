import { InputError, type InputProblem } from '../errors.ts';
import type { RecordStore } from '../store/record-store.ts';
import { startWorker } from '../worker-thread.ts';
import type { ClientRow, LoadStats, ReadOptions } from './read-client-rows.ts';

export type { LoadStats } from './read-client-rows.ts';

export interface LoadOptions extends ReadOptions {
  /** Called now and then with the records read so far, and the file being read (the `fileNumber`th of them). */
  onProgress?: (recordsRead: number, file: string, fileNumber: number) => void;
}

/** What the reading thread is given. */
export interface LoadThreadData {
  files: readonly string[];
  options: ReadOptions;
  /** One Int32: batches posted and not yet stored. */
  unstored: SharedArrayBuffer;
}

/** What the reading thread posts: rows in input order, progress, then how it ended. */
export type LoadMessage =
  | { kind: 'rows'; rows: ClientRow[] }
  | { kind: 'progress'; recordsRead: number; file: string; fileNumber: number }
  | { kind: 'done'; stats: LoadStats }
  | { kind: 'invalid'; problems: InputProblem[]; truncated: boolean }
  | { kind: 'failed'; message: string; stack?: string; code?: string };

/**
 * Loads every input record into the store, on two cores: a reading thread (load-worker.ts) reads,
 * validates and serializes the records (`readClientRows`), while this one stores each batch in one
 * transaction (loading row by row outside one is a hundred times slower). Before, one thread did
 * both, and the other core was idle during the read: a fifth of the build's one-threaded start.
 * Fails with the input's problems (`InputError`) as reading alone would.
 */
export function loadRecords(files: readonly string[], store: RecordStore, options: LoadOptions): Promise<LoadStats> {
  const { onProgress, ...read } = options;
  const unstored = new SharedArrayBuffer(4);
  const pending = new Int32Array(unstored);
  // The thread shares this process's working folder: readClientRows names files relative to it.
  const data: LoadThreadData = { files, options: read, unstored };
  const worker = startWorker(new URL('./load-worker', import.meta.url), { workerData: data });
  return new Promise((resolve, reject) => {
    let ended: LoadMessage | undefined;
    let failure: Error | undefined;
    worker.on('message', (message: LoadMessage) => {
      if (failure !== undefined) return;
      try {
        if (message.kind === 'rows') {
          store.transaction(() => message.rows.forEach((row) => storeRow(store, row)));
          Atomics.sub(pending, 0, 1);
          Atomics.notify(pending, 0);
        } else if (message.kind === 'progress') {
          onProgress?.(message.recordsRead, message.file, message.fileNumber);
        } else {
          ended = message;
        }
      } catch (error) {
        // The store failed (a full disk): stop reading (terminate also ends a wait for the store),
        // and fail once the thread has stopped.
        failure = error as Error;
        void worker.terminate();
      }
    });
    worker.on('error', (error) => (failure ??= error));
    worker.on('exit', (code) => {
      if (failure !== undefined) reject(failure);
      else if (ended?.kind === 'done') resolve(ended.stats);
      else if (ended?.kind === 'invalid') reject(new InputError(ended.problems, ended.truncated));
      // An error of the file system keeps its code (ENOENT, EACCES) for the caller.
      else if (ended?.kind === 'failed') reject(Object.assign(new Error(ended.message), { stack: ended.stack, code: ended.code }));
      else reject(new Error(`the reading thread stopped with exit code ${code}`));
    });
  });
}

/** One row into the store: its registrant (the latest copy wins, record-store.ts), then the client. */
export function storeRow(store: RecordStore, row: ClientRow): void {
  store.addRegistrant(row.registrantId, row.registrantUpdated, row.registrantFields);
  store.addClient(row.id, row.name, row.effectiveDate, row.registrantId, row.fields, row.codes);
}
