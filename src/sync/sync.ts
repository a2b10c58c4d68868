import pLimit from 'p-limit';
import { trackTimeLeft } from '../report/time-left.ts';
import { SyncFolder } from './sync-folder.ts';
import { Upstream, UpstreamError, type ClientPage, type UpstreamOptions } from './upstream.ts';
import type { Clock } from './rate-limiter.ts';

/**
 * Copies the upstream's client records into a folder as NDJSON, ready for `npm run build`.
 *
 * - full: every page of the list in the default order (ascending id, so records added during a long
 *   sync land on the last pages and earlier pages stay put), fetched `concurrency` at a time.
 * - incremental: the list by `-id` from page 1 until the walk reaches ids already held, merged into
 *   the records of the last sync. Cheap enough for every night; it cannot see changes to records it
 *   already holds (a registrant's new address), which only a full sync refreshes.
 *
 * Either way, the records saved must number the upstream's `count`, or the sync fails and says why.
 */
export interface SyncOptions extends UpstreamOptions {
  out: string;
  mode: 'full' | 'incremental';
  concurrency: number;
}

export interface SyncSummary {
  mode: 'full' | 'incremental';
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

export interface SyncProgress {
  stage(name: string): void;
  update(text: string): void;
}

const silent: SyncProgress = { stage() {}, update() {} };

export class SyncError extends Error {}

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
  return {
    mode,
    fellBackToFull,
    ...walk,
    requests: upstream.requests,
    retries: upstream.retries,
    seconds: (Date.now() - started) / 1000,
  };
}

interface WalkResult {
  records: number;
  added: number;
  pagesFetched: number;
  pagesResumed: number;
}

async function fullSync(options: SyncOptions, folder: SyncFolder, upstream: Upstream, progress: SyncProgress): Promise<WalkResult> {
  const savedPages = folder.resume({ upstream: options.upstream, mode: 'full', ordering: '' }).pages;
  progress.stage('sync (full)');
  // Page 1 is always fetched again: it gives today's count and the page size.
  const first = await upstream.page(1);
  folder.savePage(1, recordLines(first), first.count);
  const pageSize = first.results.length;
  const pages = pageSize === 0 ? 1 : Math.ceil(first.count / pageSize);
  // A saved page counts only if it was full: the last page of an earlier run may have grown since.
  const todo: number[] = [];
  let resumed = 0;
  let records = first.results.length;
  for (let page = 2; page <= pages; page++) {
    if (page < pages && savedPages.get(page) === pageSize) {
      resumed++;
      records += pageSize;
    } else todo.push(page);
  }

  const counts = new Set([first.count]);
  let fetched = 1;
  const tracker = trackTimeLeft(todo.length + 1, options.rate);
  const report = () =>
    progress.update(`page ${(fetched + resumed).toLocaleString('en-US')}/${pages.toLocaleString('en-US')}, ${records.toLocaleString('en-US')} records, ${tracker.describe(fetched)}`);
  const limit = pLimit(options.concurrency);
  // Once a page has failed for good no other starts, but those in flight finish and are saved: the
  // sync ends when it says it failed, and the next run resumes from every page it could get.
  let failed: { error: unknown } | undefined;
  await Promise.all(
    todo.map((page) =>
      limit(async () => {
        if (failed) return;
        try {
          const answer = await upstream.page(page);
          folder.savePage(page, recordLines(answer), answer.count);
          counts.add(answer.count);
          fetched++;
          records += answer.results.length;
          report();
        } catch (error) {
          failed ??= { error };
        }
      }),
    ),
  );
  if (failed) throw failed.error;

  if (counts.size > 1) {
    throw new SyncError(
      `the upstream count changed during the sync (${[...counts].join(', ')}): records were added or removed while paging. ` +
        `Run the sync again: it keeps the pages saved and fetches what moved.`,
    );
  }
  const saved =
    (await writeRecords(folder, first.count, 'full', (write) => {
      // The pages are in ascending id order: written as they are, one page in memory at a time. A record
      // seen twice (moved to the next page while paging) breaks the order: then merge them in memory.
      let last = -Infinity;
      for (const line of folder.savedLines()) {
        const id = idOf(line);
        if (id <= last) return false;
        write(line);
        last = id;
      }
      return true;
    })) ??
    (await writeRecords(folder, first.count, 'full', (write) => {
      for (const line of sortedLines(mergeById(folder.savedLines()))) write(line);
      return true;
    }))!;
  return { records: saved, added: saved, pagesFetched: fetched, pagesResumed: resumed };
}

/**
 * Writes a new records file with `fill`, checks it holds the upstream's count, and puts it in place.
 * `fill` returns false to give up (the file is dropped and undefined returned, for another way).
 */
async function writeRecords(
  folder: SyncFolder,
  count: number,
  mode: 'full' | 'incremental',
  fill: (write: (line: string) => void) => boolean | Promise<boolean>,
): Promise<number | undefined> {
  const writer = folder.newRecordsFile();
  try {
    if (!(await fill((line) => writer.write(line)))) {
      writer.discard();
      return undefined;
    }
    checkCount(writer.lines, count, mode);
  } catch (error) {
    writer.discard();
    throw error;
  }
  writer.commit();
  return writer.lines;
}

async function incrementalSync(options: SyncOptions, folder: SyncFolder, upstream: Upstream, progress: SyncProgress): Promise<WalkResult> {
  progress.stage('sync (incremental)');
  // The records held are sorted by id (a sync writes them so; the merge below checks): the newest is the last.
  const lastHeld = folder.lastRecordLine();
  const newestHeld = lastHeld === undefined ? 0 : idOf(lastHeld);
  const { pages: savedPages, walkDone } = folder.resume({ upstream: options.upstream, mode: 'incremental', ordering: '-id' });

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
      const answer = await upstream.page(page, '-id');
      lines = recordLines(answer);
      next = answer.next;
      count = page === 1 ? answer.count : count;
      folder.savePage(page, lines, answer.count);
      fetched++;
    }
    looked += lines.length;
    progress.update(`page ${page} by -id, ${looked.toLocaleString('en-US')} records looked at, ${upstream.requests} requests`);
    reachedHeld = next === null || lines.some((line) => idOf(line) <= newestHeld);
    page++;
  }
  folder.markWalkDone();
  if (fetched === 0) count = (await upstream.page(1, '-id')).count;

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

function checkCount(saved: number, count: number, mode: 'full' | 'incremental'): void {
  if (saved === count) return;
  const advice =
    mode === 'incremental'
      ? saved > count
        ? 'records were removed upstream, which only a full sync (--full) sees'
        : 'records are missing below the ids already held, which only a full sync (--full) fetches'
      : 'records moved between pages while paging; run the sync again';
  throw new SyncError(`${saved.toLocaleString('en-US')} records saved but the upstream count is ${count.toLocaleString('en-US')}: ${advice}`);
}

/** Each record of a page as one JSON line, its keys in the upstream's order. */
function recordLines(page: ClientPage): string[] {
  return page.results.map((record) => JSON.stringify(record));
}

function idOf(line: string): number {
  const id = (JSON.parse(line) as { id?: unknown }).id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new UpstreamError(`the upstream sent a client without an integer id: ${line.slice(0, 200)}`);
  return id;
}

/** Records by id; a later copy of an id replaces an earlier one. */
function mergeById(lines: Iterable<string>): Map<number, string> {
  const merged = new Map<number, string>();
  for (const line of lines) merged.set(idOf(line), line);
  return merged;
}

function* sortedLines(records: Map<number, string>): Generator<string> {
  for (const id of [...records.keys()].sort((a, b) => a - b)) yield records.get(id)!;
}
