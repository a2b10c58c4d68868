import { startWorker } from '../worker-thread.ts';

/** What the compare thread is given. */
export interface CompareThreadData {
  storeFile: string;
  previousDir: string;
}

/**
 * The compare stage: the previous build's manifest read into the store, where each render thread
 * compares the files it renders with it (previous-manifest-worker.ts). In a thread of its own: its
 * hundreds of thousands of lines leave garbage behind, which in this thread would stay in its heap
 * (70 MB of V8 heap at 134,719 records, 46 MB of it counted as used) while the render threads run,
 * and count in the build's peak memory; a thread's heap goes when it ends. The caller closes its own
 * connection to the store first: that one holds the store exclusively.
 */
export function loadPreviousManifest(storeFile: string, previousDir: string): Promise<void> {
  const data: CompareThreadData = { storeFile, previousDir };
  const worker = startWorker(new URL('./previous-manifest-worker', import.meta.url), { workerData: data });
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    worker.on('error', (error) => (failure ??= error));
    worker.on('exit', (code) => {
      if (failure !== undefined) reject(failure);
      else if (code === 0) resolve();
      else reject(new Error(`the thread reading the previous manifest stopped with exit code ${code}`));
    });
  });
}
