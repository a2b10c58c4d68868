import type { Format } from '../contract.ts';
import type { VerifiedFacts } from '../check/verified-facts.ts';
import type { SharedVerifiedResults } from '../check/verified-results.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import type { SiteUnit } from '../plan/site-units.ts';
import type { ThreadIO, WriteStats } from '../write/thread-writer.ts';

/** What each render thread is given: all of it crosses the thread boundary by structured clone. */
export interface ThreadSettings {
  storeFile: string;
  map: RewriteMap;
  /** The units of the site, taken in this order (`siteUnits`); the manifest is joined in it. */
  units: SiteUnit[];
  formats: Format[];
  /** The query bundle's inputs beyond the store: the filters' choices (for its answerer). */
  bundle: { choices: { states: string[]; countries: string[] } };
  /** Files beside the site's own, written with the fixed answers (the zero-config host's configuration). */
  extraFiles: { path: string; body: string }[];
  /** The new build folder, and the previous one (unchanged files are linked from it). */
  root: string;
  previousDir: string | undefined;
  /** Counters shared by the threads (`SHARED` below). */
  shared: SharedArrayBuffer;
  /** One bit per file of the previous build, set by the thread that met it. */
  previousMet: SharedArrayBuffer;
  verify: boolean;
  /** The client results some thread verified, per format: no other thread parses them again. */
  verifiedResults: SharedVerifiedResults | undefined;
  problemLimit: number;
  faults: BuildFault[];
}

/** Slots of the shared counters. */
export const SHARED = {
  /** The next unit to take. */
  nextUnit: 0,
  /** Files done, by every thread: for the progress bar. */
  files: 1,
  /** Set when a thread failed: the others stop at their next file. */
  abort: 2,
  /** Calls of the file system made so far, for faults that start after some. */
  calls: 3,
  size: 4,
} as const;

/**
 * What a test can ask the render threads to get wrong; plain data, so that it crosses into them.
 * - `call`: that file system call fails with `code`, from its `after`-th use on (counted across threads);
 * - `file`: the renderer produces `body` for that file, or its body with `replace[0]` replaced by
 *   `replace[1]` (the first occurrence), as a rendering bug would.
 */
export type BuildFault = { call: keyof ThreadIO; code: string; after: number } | { file: string; body?: string; replace?: [string, string] };

/** The query bundle's files and bytes, and those written anew (not linked unchanged from the previous build). */
export interface BundleStats {
  files: number;
  bytes: number;
  written: number;
  bytesWritten: number;
}

/** What a render thread reports when it has no unit left. */
export interface ThreadDone {
  kind: 'done';
  stats: WriteStats & { files: number; bytes: number; recordFiles: Record<string, number>; bundle: BundleStats };
  facts: VerifiedFacts | undefined;
}

export type ThreadMessage = ThreadDone | { kind: 'error'; message: string; stack?: string };

/**
 * The names of a unit's records of what was written, in `_build/`: one per unit, whichever thread
 * took it, so that joined in the order of the units the manifest and change list are the same from
 * build to build.
 */
export const manifestPart = (unit: number) => `manifest.${unit}.part`;
export const changedPart = (unit: number) => `changed.${unit}.part`;
