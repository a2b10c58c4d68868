/**
 * The compare stage's thread (previous-manifest.ts): reads the previous build's manifest into the
 * store's table of previous files, a transaction per batch. An error ends the thread with it, and the
 * build with that error.
 */
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { RecordStore } from '../store/record-store.ts';
import { MANIFEST_FILE, readManifestBatches } from '../write/manifest.ts';
import { PreviousFiles } from './previous-files.ts';
import type { CompareThreadData } from './previous-manifest.ts';

const { storeFile, previousDir } = workerData as CompareThreadData;
const store = RecordStore.open(storeFile);
const previousFiles = new PreviousFiles(store);
try {
  for await (const batch of readManifestBatches(previousDir)) {
    store.transaction(() => batch.forEach((entry) => previousFiles.add(entry.path, entry.size, entry.hash)));
  }
} catch (error) {
  throw new Error(`cannot compare with the previous build: ${path.join(previousDir, MANIFEST_FILE)}: ${(error as Error).message}`, { cause: error });
} finally {
  store.close();
}
