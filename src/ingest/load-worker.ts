/**
 * The reading thread (load-records.ts): reads, validates and serializes the input records, and posts
 * them as rows to the thread that stores them, a batch at a time, while that thread stores the
 * batches before. It waits when `ROWS_AHEAD` batches are still unstored, so that memory holds a few
 * batches, not the input.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../errors.ts';
import type { LoadMessage, LoadThreadData } from './load-records.ts';
import { readClientRows } from './read-client-rows.ts';

const { files, options, unstored } = workerData as LoadThreadData;
const pending = new Int32Array(unstored);
const post = (message: LoadMessage) => parentPort!.postMessage(message);

/** Batches posted and not yet stored at which this thread waits for the store. */
const ROWS_AHEAD = 4;

try {
  const stats = await readClientRows(
    files,
    options,
    (rows) => {
      Atomics.add(pending, 0, 1);
      post({ kind: 'rows', rows });
      for (let ahead = Atomics.load(pending, 0); ahead >= ROWS_AHEAD; ahead = Atomics.load(pending, 0)) Atomics.wait(pending, 0, ahead);
    },
    (recordsRead, file, fileNumber) => post({ kind: 'progress', recordsRead, file, fileNumber }),
  );
  post({ kind: 'done', stats });
} catch (error) {
  if (error instanceof InputError) post({ kind: 'invalid', problems: [...error.problems], truncated: error.truncated });
  else post({ kind: 'failed', message: (error as Error).message, stack: (error as Error).stack, code: (error as NodeJS.ErrnoException).code });
}
