import { idOf, mergeById, recordLines } from './record-lines.ts';
import { writeRecords } from './records-file.ts';
import type { SyncFolder } from './sync-folder.ts';
import type { SyncOptions } from './sync-options.ts';
import type { Upstream } from './upstream.ts';
import { SyncError, type SyncProgress, type WalkResult } from './walk.ts';

/**
 * The list by `-id` from page 1 until the walk reaches ids already held, merged into the records of
 * the last sync. Cheap enough for every night; it cannot see changes to records it already holds (a
 * registrant's new address), which only a full sync refreshes.
 */
export async function incrementalSync(options: SyncOptions, folder: SyncFolder, upstream: Upstream, progress: SyncProgress): Promise<WalkResult> {
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
