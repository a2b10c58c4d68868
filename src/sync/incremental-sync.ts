import { idOf, mergeById, recordLines } from './record-lines.ts';
import { writeRecords } from './records-file.ts';
import type { SyncFolder } from './sync-folder.ts';
import type { SyncOptions } from './sync-options.ts';
import { UpstreamError, type Upstream } from './upstream.ts';
import { SyncError, type SyncProgress, type WalkResult } from './walk.ts';

/**
 * How a list is walked newest first: its ordering, each record's key in that order, and the newest
 * key of the records held.
 */
export interface NewestFirst {
  name: string;
  ordering: string;
  keyOf(line: string): number;
  newestHeld(folder: SyncFolder): Promise<number>;
}

/** The clients by `-id`: new clients only (a client's record does not change once filed). */
export const NEWEST_CLIENTS: NewestFirst = {
  name: 'clients',
  ordering: '-id',
  keyOf: idOf,
  // The records held are sorted by id (a sync writes them so; the merge below checks): the newest is the last.
  newestHeld: async (folder) => {
    const lastHeld = folder.lastRecordLine();
    return lastHeld === undefined ? 0 : idOf(lastHeld);
  },
};

/** The registrants by `-dt_updated`: new registrants and changed ones (a new address, a new name). */
export const NEWEST_REGISTRANTS: NewestFirst = {
  name: 'registrants',
  ordering: '-dt_updated',
  keyOf: updatedOf,
  newestHeld: async (folder) => {
    let newest = -Infinity;
    for await (const line of folder.recordLines()) newest = Math.max(newest, updatedOf(line));
    return newest;
  },
};

/** A registrant's dt_updated in milliseconds (none: the oldest); a millisecond's changes are on the page that stops the walk. */
function updatedOf(line: string): number {
  const stamp = (JSON.parse(line) as { dt_updated?: unknown }).dt_updated ?? null;
  const ms = typeof stamp === 'string' ? Date.parse(stamp) : stamp === null ? -Infinity : Number.NaN;
  if (Number.isNaN(ms)) throw new UpstreamError(`the upstream sent a registrant whose dt_updated is not a timestamp: ${line.slice(0, 200)}`);
  return ms;
}

/**
 * The list newest first from page 1 until the walk reaches records no newer than those held, merged
 * into the records of the last sync (a record fetched replaces the one held with its id). Cheap
 * enough for every night. The clients' walk sees new clients only; the registrants' walk, by
 * `dt_updated`, also sees registrants that changed.
 */
export async function incrementalSync(options: SyncOptions, folder: SyncFolder, upstream: Upstream, progress: SyncProgress, walk: NewestFirst = NEWEST_CLIENTS): Promise<WalkResult> {
  progress.stage(walk === NEWEST_CLIENTS ? 'sync (incremental)' : `sync ${walk.name} (incremental)`);
  const newestHeld = await walk.newestHeld(folder);
  const { pages: savedPages, walkDone } = folder.resume({ upstream: options.upstream, mode: 'incremental', ordering: walk.ordering });

  // Page 1 is always fetched again, so records added since an interrupted run are not missed.
  let page = 1;
  let fetched = 0;
  let resumed = 0;
  let count = 0;
  let looked = 0;
  let reachedHeld = walkDone;
  while (!reachedHeld) {
    let lines: string[];
    let next: string | null;
    if (page > 1 && savedPages.has(page)) {
      lines = folder.pageLines(page);
      next = lines.length > 0 ? 'saved' : null;
      resumed++;
    } else {
      const answer = await upstream.page(page, walk.ordering);
      lines = recordLines(answer);
      next = answer.next;
      count = page === 1 ? answer.count : count;
      folder.savePage(page, lines, answer.count);
      fetched++;
    }
    looked += lines.length;
    progress.update(`page ${page} by ${walk.ordering}, ${looked.toLocaleString('en-US')} records looked at, ${upstream.requests} requests`);
    reachedHeld = next === null || lines.some((line) => walk.keyOf(line) <= newestHeld);
    page++;
  }
  folder.markWalkDone();
  if (fetched === 0) count = (await upstream.page(1, walk.ordering)).count;

  // The pages walked are few: merged in memory, then into the records held as both stream by id.
  const walked = mergeById(folder.savedLines());
  const walkedIds = [...walked.keys()].sort((a, b) => a - b);
  let added = walkedIds.length;
  const saved = (await writeRecords(folder, count, 'incremental', async (write) => {
    let next = 0;
    let previous = 0;
    for await (const line of folder.recordLines()) {
      const id = idOf(line);
      if (id <= previous) throw new SyncError(`${folder.recordsFile} is not sorted by id (${id} after ${previous}): run a full sync (--full)`);
      previous = id;
      while (next < walkedIds.length && walkedIds[next]! < id) write(walked.get(walkedIds[next++]!)!);
      if (walkedIds[next] === id) {
        write(walked.get(walkedIds[next++]!)!); // the copy just fetched replaces the one held
        added--;
      } else write(line);
    }
    while (next < walkedIds.length) write(walked.get(walkedIds[next++]!)!);
    return true;
  }))!;
  return { records: saved, added, pagesFetched: fetched, pagesResumed: resumed };
}
