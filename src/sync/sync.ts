import { fullSync } from './full-sync.ts';
import { NEWEST_REGISTRANTS, incrementalSync } from './incremental-sync.ts';
import type { Clock } from './rate-limiter.ts';
import { REGISTRANT_FILES, SyncFolder } from './sync-folder.ts';
import type { SyncOptions } from './sync-options.ts';
import { Upstream } from './upstream.ts';
import type { SyncProgress, WalkResult } from './walk.ts';

export interface SyncSummary {
  mode: 'full' | 'incremental';
  /** The registrants list's walk (contract section 10), into registrants.ndjson beside the clients. */
  registrants: WalkResult & { mode: 'full' | 'incremental' };
  /** Why an incremental sync ran as a full one, when it did. */
  fellBackToFull?: string;
  records: number;
  /** Incremental: records that were not held before. */
  added: number;
  pagesFetched: number;
  pagesResumed: number;
  requests: number;
  retries: number;
  seconds: number;
}

const silent: SyncProgress = { stage() {}, update() {} };

/**
 * Copies the upstream's client records into a folder as NDJSON, ready for `npm run build`, by one of
 * two walks of the list: full (full-sync.ts), every page, or incremental (incremental-sync.ts), the
 * new records merged into those of the last sync; with no records held yet, a full one. Then the
 * registrants list the same way into `registrants.ndjson` (a few hundred pages for the registry),
 * incrementally by `-dt_updated`, so that changed registrants are fetched too.
 *
 * Either way, the records saved must number the upstream's `count`, or the sync fails and says why.
 */
export async function sync(options: SyncOptions, progress: SyncProgress = silent, clock?: Clock): Promise<SyncSummary> {
  const started = Date.now();
  const folder = new SyncFolder(options.out);
  const upstream = new Upstream(options, clock);
  let mode = options.mode;
  let fellBackToFull: string | undefined;
  if (mode === 'incremental' && !folder.hasRecords()) {
    mode = 'full';
    fellBackToFull = `${folder.recordsFile} does not exist yet`;
  }
  const walk = mode === 'full' ? await fullSync(options, folder, upstream, progress) : await incrementalSync(options, folder, upstream, progress);
  // Then the registrants, within the same rate: those no client embeds are listed too.
  const registrantFolder = new SyncFolder(options.out, REGISTRANT_FILES);
  const registrantUpstream = upstream.list('/api/v1/registrants/');
  const registrantMode = mode === 'full' || !registrantFolder.hasRecords() ? 'full' : 'incremental';
  const registrants =
    registrantMode === 'full'
      ? await fullSync(options, registrantFolder, registrantUpstream, progress, 'registrants')
      : await incrementalSync(options, registrantFolder, registrantUpstream, progress, NEWEST_REGISTRANTS);
  return {
    mode,
    fellBackToFull,
    ...walk,
    registrants: { mode: registrantMode, ...registrants },
    requests: upstream.requests + registrantUpstream.requests,
    retries: upstream.retries + registrantUpstream.retries,
    seconds: (Date.now() - started) / 1000,
  };
}
