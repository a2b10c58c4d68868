import pLimit from 'p-limit';
import { trackTimeLeft } from '../report/time-left.ts';
import { idOf, mergeById, recordLines, sortedLines } from './record-lines.ts';
import { writeRecords } from './records-file.ts';
import type { SyncFolder } from './sync-folder.ts';
import type { SyncOptions } from './sync-options.ts';
import type { Upstream } from './upstream.ts';
import { SyncError, type SyncProgress, type WalkResult } from './walk.ts';

/**
 * Every page of the list in the default order (ascending id, so records added during a long sync
 * land on the last pages and earlier pages stay put), fetched `concurrency` at a time; full pages
 * saved by an interrupted run are kept.
 */
export async function fullSync(options: SyncOptions, folder: SyncFolder, upstream: Upstream, progress: SyncProgress, list = 'clients'): Promise<WalkResult> {
  const savedPages = folder.resume({ upstream: options.upstream, mode: 'full', ordering: '' }).pages;
  progress.stage(list === 'clients' ? 'sync (full)' : `sync ${list} (full)`);
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
