import type { Format } from '../contract.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';

/**
 * What the render thread sends the writing thread: a batch of files, each with its size, MD5 and
 * whether the previous build already has the same bytes (then it is linked, not written). The bytes
 * of the files to write travel in one transferred buffer, so nothing is copied between threads.
 */
export interface FileBatch {
  kind: 'files';
  paths: string[];
  sizes: number[];
  hashes: string[];
  /** Per file: true when the previous build has the same bytes at the same path. */
  unchanged: boolean[];
  /** The bytes of the files that are not unchanged, one after the other. */
  data: Uint8Array;
}

/** Paths the previous build had and this one has not; sent after the last files. */
export interface RemovedBatch {
  kind: 'removed';
  paths: string[];
}

export interface ProduceFailure {
  kind: 'error';
  message: string;
  stack?: string;
}

export type WorkerMessage = FileBatch | RemovedBatch | ProduceFailure | { kind: 'done' };

export interface ProduceSettings {
  storeFile: string;
  map: RewriteMap;
  formats: Format[];
  /** Files beside the site's own, written after them (the zero-config host's configuration). */
  extraFiles: { path: string; body: string }[];
  /** Shared counter of batches sent and not yet taken: the render thread waits when it is full. */
  pending: SharedArrayBuffer;
}

export const MAX_PENDING_BATCHES = 4;
