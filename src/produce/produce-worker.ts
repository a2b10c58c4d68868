import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { BuildVerifier } from '../check/build-verifier.ts';
import { recordKind } from '../plan/site-layout.ts';
import { unitFolders, type SiteUnit } from '../plan/site-units.ts';
import { assemblePage, listPageParts } from '../render/bodies.ts';
import { unitFiles, type SiteFile } from '../render/site-files.ts';
import { PreviousFiles } from '../previous/previous-files.ts';
import { openPreviousBundle } from '../previous/previous-bundle.ts';
import { hashInName, stemOf } from '../bundle/content-names.ts';
import { RecordStore } from '../store/record-store.ts';
import { BUILD_FOLDER, fileHash, manifestLine } from '../write/manifest.ts';
import { LineWriter, ThreadWriter, nodeThreadIO, type ThreadIO } from '../write/thread-writer.ts';
import { BodyBytes } from './body-bytes.ts';
import { SHARED, changedPart, manifestPart, type BuildFault, type BundleStats, type ThreadMessage, type ThreadSettings } from './thread-settings.ts';

/**
 * A render thread: takes units of the site one at a time until none is left, and for each file
 * renders it, verifies it (parsed back, held to the check's rules), hashes it, and writes it (or
 * links the previous build's copy when the bytes are the same) where it was rendered. One such
 * thread per core: each keeps its core busy with JSON, hashing and its own write calls.
 */
const settings = workerData as ThreadSettings;
const shared = new Int32Array(settings.shared);
const previousMet = new Int32Array(settings.previousMet);

function run(): ThreadMessage {
  const store = RecordStore.open(settings.storeFile);
  const thread: ThreadState = {
    store,
    previous: settings.previousDir === undefined ? undefined : new PreviousFiles(store).lookup(),
    writer: new ThreadWriter(settings.root, settings.previousDir, withFaults(nodeThreadIO, settings.faults)),
    verifier: settings.verify ? new BuildVerifier(settings.map, settings.problemLimit, settings.verifiedResults) : undefined,
    bodyFaults: new Map(settings.faults.flatMap((fault) => ('file' in fault ? [[fault.file, fault] as const] : []))),
    bodies: new BodyBytes(),
    files: 0,
    bytes: 0,
    recordFiles: {},
    bundle: { files: 0, bytes: 0, written: 0, bytesWritten: 0 },
  };
  const { units } = settings;
  try {
    for (let next = Atomics.add(shared, SHARED.nextUnit, 1); next < units.length; next = Atomics.add(shared, SHARED.nextUnit, 1)) {
      if (!produceUnit(thread, units[next]!, next)) return { kind: 'error', message: 'stopped: another render thread failed' };
    }
  } finally {
    store.close();
  }
  const { writer, files, bytes, recordFiles, bundle, verifier } = thread;
  return { kind: 'done', stats: { ...writer.stats, files, bytes, recordFiles, bundle }, facts: verifier?.facts() };
}

interface ThreadState {
  store: RecordStore;
  previous: ReturnType<PreviousFiles['lookup']> | undefined;
  writer: ThreadWriter;
  verifier: BuildVerifier | undefined;
  bodyFaults: Map<string, Extract<BuildFault, { file: string }>>;
  bodies: BodyBytes;
  files: number;
  bytes: number;
  recordFiles: Record<string, number>;
  /** The query bundle's files (its unit's): what a deploy of the edge hosts uploads, and of it what changed. */
  bundle: BundleStats;
}

/**
 * Renders, verifies, hashes and writes (or links) every file of one unit, and records them in the
 * unit's parts of the manifest and change list. False when it stopped because another thread failed.
 */
function produceUnit(thread: ThreadState, unit: SiteUnit, index: number): boolean {
  const { previous, writer, verifier } = thread;
  const manifest = new LineWriter(path.join(settings.root, BUILD_FOLDER, manifestPart(index)));
  const changed = new LineWriter(path.join(settings.root, BUILD_FOLDER, changedPart(index)));
  verifier?.startUnit(unit);
  try {
    writer.makeFolders(unitFolders(thread.store, settings.map, settings.formats, unit));
    for (const file of filesOf(thread.store, unit)) {
      if (Atomics.load(shared, SHARED.abort) !== 0) return false;
      const data = renderedBytes(thread, file);
      const hash = fileHash(data);
      const before = previous?.(file.path);
      if (before !== undefined) Atomics.or(previousMet, before.row >>> 5, 1 << (before.row & 31));
      const unchanged = before !== undefined && before.size === data.length && before.hash === hash;
      if (unchanged) {
        writer.link(file.path, data.length);
      } else {
        writer.write(file.path, data);
        changed.add(file.path);
      }
      if (unit.kind === 'bundle') countBundleFile(thread.bundle, data.length, unchanged);
      manifest.add(manifestLine({ path: file.path, size: data.length, hash }));
      thread.files++;
      thread.bytes += data.length;
      const kind = recordKind(file.path);
      if (kind !== undefined) thread.recordFiles[kind] = (thread.recordFiles[kind] ?? 0) + 1;
      Atomics.add(shared, SHARED.files, 1);
    }
  } finally {
    manifest.close();
    changed.close();
  }
  verifier?.endUnit(unit);
  return true;
}

function countBundleFile(stats: BundleStats, size: number, unchanged: boolean): void {
  stats.files++;
  stats.bytes += size;
  if (unchanged) return;
  stats.written++;
  stats.bytesWritten += size;
}

/**
 * The bytes of one file, verified: a page of a list written from its head and clients and verified in
 * its bytes (each client's body once per build and format); any other file, or one a test's fault
 * changed, as its whole text.
 */
function renderedBytes(thread: ThreadState, file: SiteFile): Buffer {
  // A test names a bundle file by its stem (`bundle/clients/1.bin`): its name holds the hash of bytes the test cannot know.
  const fault = thread.bodyFaults.get(hashInName(file.path) === undefined ? file.path : `${stemOf(file.path)}.bin`);
  // The query bundle's files are checked where they are rendered, by reading them back (and the whole
  // bundle by its hashes and the answerer before the switch); a test's fault replaces one's bytes after that.
  if (file.data !== undefined) return fault?.body !== undefined ? Buffer.from(fault.body) : Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  const { verifier, bodies } = thread;
  const ascii = file.ascii === true;
  if (fault === undefined && file.page !== undefined) {
    const data = bodies.listPage(file.page, ascii);
    verifier?.verifyListPageBytes(file.path, file.page, data, bodies, ascii);
    return data;
  }
  const parts = file.page === undefined ? undefined : listPageParts(file.page);
  const text = file.body ?? assemblePage(parts!);
  const body = fault === undefined ? text : (fault.body ?? text.replace(fault.replace![0], fault.replace![1]));
  const data = bodies.text(body, fault === undefined && ascii);
  verifier?.verify(file.path, body, parts, data.length);
  return data;
}

function* filesOf(store: RecordStore, unit: SiteUnit): Generator<SiteFile> {
  // The query bundle keeps what it can of the previous build's (render/registrant-overlay.ts).
  const bundle = unit.kind === 'bundle' ? { ...settings.bundle, previous: openPreviousBundle(settings.previousDir) } : settings.bundle;
  yield* unitFiles(store, settings.map, settings.formats, unit, bundle);
  if (unit.kind === 'fixed') yield* settings.extraFiles;
}

/** The file system calls, failing as the test's faults ask (none in a real build). */
function withFaults(io: ThreadIO, faults: readonly BuildFault[]): ThreadIO {
  const failing = faults.flatMap((fault) => ('call' in fault ? [fault] : []));
  if (failing.length === 0) return io;
  const faulty: ThreadIO = { ...io };
  for (const fault of failing) {
    const real = io[fault.call] as (...args: unknown[]) => unknown;
    (faulty as unknown as Record<string, unknown>)[fault.call] = (...args: unknown[]) => {
      if (Atomics.add(shared, SHARED.calls, 1) >= fault.after) {
        const file = String(args[fault.call === 'linkSync' || fault.call === 'copyFileSync' ? 1 : 0]);
        throw Object.assign(new Error(`${fault.code}: injected fault, ${fault.call.replace('Sync', '')} '${file}'`), { code: fault.code, path: file });
      }
      return real(...args);
    };
  }
  return faulty;
}

let message: ThreadMessage;
try {
  message = run();
} catch (error) {
  Atomics.store(shared, SHARED.abort, 1);
  const failure = error as Error;
  message = { kind: 'error', message: failure.message, stack: failure.stack };
}
parentPort!.postMessage(message);
