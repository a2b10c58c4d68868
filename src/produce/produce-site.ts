import { Worker } from 'node:worker_threads';
import type { Format } from '../contract.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import type { FileBatch, RemovedBatch, WorkerMessage } from './file-batch.ts';

/**
 * The render thread's program. Compiled (lib/, the installed package), produce-worker.js beside this
 * file. Run from the TypeScript (tsx in a checkout, vitest), start-worker.mjs, which registers tsx
 * first: a worker thread does not inherit its parent's loader.
 */
const WORKER_PROGRAM = import.meta.url.endsWith('.ts') ? new URL('./start-worker.mjs', import.meta.url) : new URL('./produce-worker.js', import.meta.url);

/**
 * Runs the render thread over the store and hands its batches to the caller, one at a time. The
 * caller takes a batch (writes or links its files), then asks for the next; the render thread keeps a
 * few batches ready meanwhile. The store must be closed by this thread before, as the render thread
 * opens it itself.
 */
export async function* produceSite(storeFile: string, map: RewriteMap, formats: Format[], extraFiles: { path: string; body: string }[] = []): AsyncGenerator<FileBatch | RemovedBatch> {
  const pending = new SharedArrayBuffer(4);
  const counter = new Int32Array(pending);
  const worker = new Worker(WORKER_PROGRAM, {
    workerData: { storeFile, map, formats, extraFiles, pending },
    // The thread keeps little alive (one page, one batch); without a cap V8 lets garbage grow its heap.
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
  });
  const inbox: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let exitError: Error | undefined;
  worker.on('message', (message: WorkerMessage) => {
    inbox.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    exitError = error;
    wake?.();
  });
  worker.on('exit', (code) => {
    if (code !== 0) exitError ??= new Error(`the render thread stopped with exit code ${code}`);
    wake?.();
  });

  try {
    for (;;) {
      const message = inbox.shift();
      if (message === undefined) {
        if (exitError) throw exitError;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      if (message.kind === 'error') throw Object.assign(new Error(message.message), { stack: message.stack });
      if (message.kind === 'done') return;
      yield message;
      Atomics.sub(counter, 0, 1);
      Atomics.notify(counter, 0);
    }
  } finally {
    await worker.terminate();
  }
}
