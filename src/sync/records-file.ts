import type { SyncFolder } from './sync-folder.ts';
import { SyncError } from './walk.ts';

/**
 * Writes a new records file with `fill`, checks it holds the upstream's count, and puts it in place.
 * `fill` returns false to give up (the file is dropped and undefined returned, for another way).
 */
export async function writeRecords(
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
