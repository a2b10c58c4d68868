import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { joinVerifiedFacts } from '../check/verified-facts.ts';
import { sharedVerifiedResults } from '../check/verified-results.ts';
import { recordLinkSuffix } from '../render/bodies.ts';
import { PreviousFiles } from '../previous/previous-files.ts';
import { RecordStore } from '../store/record-store.ts';
import { startWorker } from '../worker-thread.ts';
import { BUILD_FOLDER, CHANGED_FILE, MANIFEST_FILE, MANIFEST_HEADER, REMOVED_FILE } from '../write/manifest.ts';
import { LineWriter, type WriteStats } from '../write/thread-writer.ts';
import { SHARED, changedPart, manifestPart, type BuildFault, type BundleStats, type ThreadDone, type ThreadMessage, type ThreadSettings } from './thread-settings.ts';

export interface ProduceOptions extends Pick<ThreadSettings, 'storeFile' | 'map' | 'units' | 'formats' | 'bundle' | 'extraFiles' | 'root' | 'previousDir' | 'verify'> {
  /** Render threads to run: one per core. */
  threads: number;
  problemLimit?: number;
  faults?: BuildFault[];
  onProgress?: (files: number) => void;
}

export interface ProduceResult extends WriteStats {
  files: number;
  bytes: number;
  removed: number;
  /** Record files written or linked, by route (`clients`, `registrants`): for the check that records in are records out. */
  recordFiles: Record<string, number>;
  /** The query bundle's files, what changed of them: the Worker's and edge hosts' upload. */
  bundle: BundleStats;
  /** What the verification found wrong; empty when it passed (or did not run). */
  problems: string[];
  links: number;
}

/**
 * Renders and writes the whole site with one render thread per core (produce-worker.ts), then joins
 * what the threads recorded: the manifest and change list, the files of the previous build that no
 * thread met (removed), and their verifications. The store must be closed by this thread before:
 * each render thread opens it itself, and this one again at the end.
 */
export async function produceSite(options: ProduceOptions): Promise<ProduceResult> {
  mkdirSync(path.join(options.root, BUILD_FOLDER), { recursive: true });
  const { previousRows, ids } = withStore(options.storeFile, (store) => ({
    previousRows: options.previousDir === undefined ? 0 : new PreviousFiles(store).count(),
    ids: store.clientIds(),
  }));
  const shared = new SharedArrayBuffer(SHARED.size * 4);
  const previousMet = new SharedArrayBuffer(4 * (Math.floor(previousRows / 32) + 1));
  const verifiedResults = options.verify ? sharedVerifiedResults(options.formats.map(recordLinkSuffix), ids.count, ids.largest) : undefined;
  scavengeOnOneThread();
  const threads = Array.from({ length: options.threads }, () => {
    const settings: ThreadSettings = {
      storeFile: options.storeFile,
      map: options.map,
      units: options.units,
      formats: options.formats,
      bundle: options.bundle,
      extraFiles: options.extraFiles,
      root: options.root,
      previousDir: options.previousDir,
      shared,
      previousMet,
      verify: options.verify,
      verifiedResults,
      problemLimit: options.problemLimit ?? 50,
      faults: options.faults ?? [],
    };
    return runThread(settings);
  });
  const counters = new Int32Array(shared);
  const progress = setInterval(() => options.onProgress?.(Atomics.load(counters, SHARED.files)), 250);
  let done: ThreadDone[];
  try {
    done = await Promise.all(threads.map((thread) => thread.catch((error: Error) => {
      Atomics.store(counters, SHARED.abort, 1);
      throw error;
    })));
  } catch (error) {
    // Every thread has stopped before the caller removes the folder: nothing may still be writing into it.
    throw firstFailure(await Promise.allSettled(threads)) ?? error;
  } finally {
    clearInterval(progress);
  }
  options.onProgress?.(Atomics.load(counters, SHARED.files));

  const units = options.units.length;
  joinParts(options.root, MANIFEST_FILE, `${MANIFEST_HEADER}\n`, units, manifestPart);
  joinParts(options.root, CHANGED_FILE, '', units, changedPart);
  const met = new Int32Array(previousMet);
  const removedFile = new LineWriter(path.join(options.root, REMOVED_FILE));
  let removed = 0;
  if (previousRows > 0) {
    withStore(options.storeFile, (store) => {
      for (const file of new PreviousFiles(store).notMet((row) => (met[row >>> 5]! & (1 << (row & 31))) !== 0)) {
        removedFile.add(file);
        removed++;
      }
    });
  }
  removedFile.close();

  const verified = options.verify ? joinVerifiedFacts(options.map, done.map((thread) => thread.facts!), options.problemLimit) : { problems: [], links: 0 };
  const sum = (pick: (thread: ThreadDone) => number) => done.reduce((total, thread) => total + pick(thread), 0);
  const recordFiles: Record<string, number> = {};
  for (const thread of done) for (const [kind, count] of Object.entries(thread.stats.recordFiles)) recordFiles[kind] = (recordFiles[kind] ?? 0) + count;
  return {
    files: sum((thread) => thread.stats.files),
    bytes: sum((thread) => thread.stats.bytes),
    written: sum((thread) => thread.stats.written),
    bytesWritten: sum((thread) => thread.stats.bytesWritten),
    linked: sum((thread) => thread.stats.linked),
    bytesLinked: sum((thread) => thread.stats.bytesLinked),
    removed,
    recordFiles,
    bundle: {
      files: sum((thread) => thread.stats.bundle.files),
      bytes: sum((thread) => thread.stats.bundle.bytes),
      written: sum((thread) => thread.stats.bundle.written),
      bytesWritten: sum((thread) => thread.stats.bundle.bytesWritten),
    },
    problems: verified.problems,
    links: verified.links,
  };
}

/** One render thread, to the message it ends with: its results, or its failure as an error. */
function runThread(settings: ThreadSettings): Promise<ThreadDone> {
  return new Promise((resolve, reject) => {
    // A thread keeps little alive (one page, its sets of ids); without a cap V8 lets garbage grow its heap.
    // The most is the query bundle's: a segment's names and values (131,072 clients) and the registrants' texts.
    const worker = startWorker(new URL('./produce-worker', import.meta.url), { workerData: settings, resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 } });
    let message: ThreadMessage | undefined;
    worker.on('message', (received: ThreadMessage) => (message = received));
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (message?.kind === 'done') resolve(message);
      else if (message?.kind === 'error') reject(Object.assign(new Error(message.message), { stack: message.stack, stopped: message.message.startsWith('stopped:') }));
      else reject(new Error(`a render thread stopped with exit code ${code}`));
    });
  });
}

/**
 * Each isolate's young generation is collected by the thread that filled it, without V8's helper
 * threads. A render thread fills its young generation every few megabytes (about 1,700 times per
 * thread at 134,719 records); by default each such scavenge is shared out to V8's platform threads,
 * but with one render thread per core those have no idle core to run on, and the render thread waits
 * for them. On tmpfs, builds alternating: at 30,000 records 9.6-11.5 s (median 9.7) against
 * 9.3-11.7 s (median 10.3), faster in four pairs of five; at 134,719 records 38.8 and 40.0 s against
 * 42.3 and 43.8 s. V8's flags are the process's: this holds for the rest of the process, a build's.
 */
function scavengeOnOneThread(): void {
  setFlagsFromString('--no-parallel-scavenge');
}

/** The first real failure of the threads: not one that only stopped because another failed. */
function firstFailure(results: PromiseSettledResult<ThreadDone>[]): Error | undefined {
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error & { stopped?: boolean }] : []));
  return failures.find((failure) => !failure.stopped) ?? failures[0];
}

/** Joins the units' parts of a record into one file, `header` first, and removes the parts. */
function joinParts(root: string, file: string, header: string, units: number, part: (unit: number) => string): void {
  const target = openSync(path.join(root, file), 'w');
  try {
    if (header !== '') writeSync(target, header);
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (let unit = 0; unit < units; unit++) {
      const partFile = path.join(root, BUILD_FOLDER, part(unit));
      const source = openSync(partFile, 'r');
      try {
        for (let read = readSync(source, chunk); read > 0; read = readSync(source, chunk)) writeSync(target, chunk, 0, read);
      } finally {
        closeSync(source);
      }
      rmSync(partFile);
    }
  } finally {
    closeSync(target);
  }
}

function withStore<T>(file: string, work: (store: RecordStore) => T): T {
  const store = RecordStore.open(file);
  try {
    return work(store);
  } finally {
    store.close();
  }
}
