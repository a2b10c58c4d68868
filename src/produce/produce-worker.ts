import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { siteFiles } from '../render/site-files.ts';
import { RecordStore } from '../store/record-store.ts';
import { MAX_PENDING_BATCHES, type FileBatch, type ProduceSettings, type WorkerMessage } from './file-batch.ts';

/**
 * The render thread: renders every site file from the store, hashes it, and asks the store whether
 * the previous build had the same bytes. It runs beside the writing thread so that both cores work:
 * this one on JSON and hashes, the main one on file system calls.
 */
const BATCH_BYTES = 1 << 20;
const BATCH_FILES = 1000;

const settings = workerData as ProduceSettings;
const pending = new Int32Array(settings.pending);
const port = parentPort!;

function send(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  // Wait while the writing thread has enough batches to work on: memory stays bounded.
  while (Atomics.load(pending, 0) >= MAX_PENDING_BATCHES) Atomics.wait(pending, 0, Atomics.load(pending, 0), 1000);
  Atomics.add(pending, 0, 1);
  port.postMessage(message, transfer);
}

function run(): void {
  const store = RecordStore.open(settings.storeFile);
  try {
    let batch = newBatch();
    let chunks: Buffer[] = [];
    let bytes = 0;
    const flush = () => {
      if (batch.paths.length === 0) return;
      const data = new Uint8Array(new ArrayBuffer(bytes)); // its own buffer, safe to transfer
      let offset = 0;
      for (const chunk of chunks) {
        data.set(chunk, offset);
        offset += chunk.length;
      }
      send({ ...batch, data }, [data.buffer]);
      batch = newBatch();
      chunks = [];
      bytes = 0;
    };

    const files = function* () {
      yield* siteFiles(store, settings.map, settings.formats);
      yield* settings.extraFiles;
    };
    for (const file of files()) {
      const data = Buffer.from(file.body, 'utf8');
      const hash = createHash('md5').update(data).digest('hex');
      const previous = store.takePreviousFile(file.path);
      const unchanged = previous !== undefined && previous.size === data.length && previous.hash === hash;
      batch.paths.push(file.path);
      batch.sizes.push(data.length);
      batch.hashes.push(hash);
      batch.unchanged.push(unchanged);
      if (!unchanged) {
        chunks.push(data);
        bytes += data.length;
      }
      if (bytes >= BATCH_BYTES || batch.paths.length >= BATCH_FILES) flush();
    }
    flush();

    let removed: string[] = [];
    for (const path of store.remainingPreviousFiles()) {
      removed.push(path);
      if (removed.length === BATCH_FILES) {
        send({ kind: 'removed', paths: removed });
        removed = [];
      }
    }
    if (removed.length > 0) send({ kind: 'removed', paths: removed });
    send({ kind: 'done' });
  } finally {
    store.close();
  }
}

function newBatch(): Omit<FileBatch, 'data'> {
  return { kind: 'files', paths: [], sizes: [], hashes: [], unchanged: [] };
}

try {
  run();
} catch (error) {
  const failure = error as Error;
  port.postMessage({ kind: 'error', message: failure.message, stack: failure.stack } satisfies WorkerMessage);
}
