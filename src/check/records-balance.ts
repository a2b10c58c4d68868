import type { LoadStats } from '../ingest/load-records.ts';
import type { StoreCounts } from '../store/record-store.ts';

/**
 * Every record read is accounted for: served as a client, replaced by a later copy of its id, or
 * skipped as invalid; and every client and registrant has its record file in every format. A
 * mismatch is a bug of this program, and the build fails rather than publish it.
 */
export function checkRecordsInAreRecordsOut(loaded: LoadStats, counts: StoreCounts, written: { recordFiles: Record<string, number> }, formats: number): void {
  const accounted = counts.clients + counts.replacedClients + loaded.skipped;
  const problems: string[] = [];
  if (loaded.recordsRead !== accounted) {
    problems.push(`${loaded.recordsRead} records read, but ${counts.clients} clients + ${counts.replacedClients} replaced + ${loaded.skipped} skipped`);
  }
  if ((written.recordFiles.clients ?? 0) !== counts.clients * formats) {
    problems.push(`${written.recordFiles.clients ?? 0} client files for ${counts.clients} clients in ${formats} format(s)`);
  }
  if ((written.recordFiles.registrants ?? 0) !== counts.registrants * formats) {
    problems.push(`${written.recordFiles.registrants ?? 0} registrant files for ${counts.registrants} registrants in ${formats} format(s)`);
  }
  if (problems.length > 0) throw new Error(`records in are not records out: ${problems.join('; ')}`);
}
