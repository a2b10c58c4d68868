import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Why the bench waits after deleting a tree, and how long.
 *
 * ext4 without a journal (this machine's disk: no `/proc/fs/jbd2/<device>-*`) will not hand out an
 * inode within 60 s of its deletion, or 360 s while the inode table block holding it is dirty
 * (fs/ext4/ialloc.c: `recently_deleted`, RECENTCY_MIN 60, RECENTCY_DIRTY 300). Every file or folder
 * made in that window scans past such inodes one by one, each a buffer-cache lookup. Right after
 * a tree of 196,000 files was deleted, writing the same tree again took 33-48 s of which 31-46 s
 * in the kernel; on a rested disk, 11.8 s (perf: `recently_deleted` and the lookups under it, ~40%
 * of the samples).
 *
 * A measure that starts right after a deletion pays this; one that starts later does not. So that
 * build and floor are timed alike, every timed child starts on a rested file system: the trees of
 * a run are kept until the bench ends, and after any deletion (by the bench, or a rebuild's removal
 * of the folder it replaced) the next measure waits until the window has passed.
 */
export class RecentDeletions {
  /** When the last deletion ended (ms since the epoch), or 0. */
  private lastEnded = 0;
  private readonly windowMs: number;

  constructor(
    /** The folder whose file system is measured. */
    readonly folder: string,
    private readonly log: (text: string) => void,
  ) {
    this.windowMs = withholdsRecentInodes(folder) ? 365_000 : 0;
  }

  /** Whether this file system withholds recently deleted inodes (and so waits are made). */
  get waits(): boolean {
    return this.windowMs > 0;
  }

  /** Records that a deletion has just ended. */
  deleted(): void {
    this.lastEnded = Date.now();
  }

  /**
   * Before a timed measure: ends background removals (`.<name>.trash-*`, a rebuild's old folder),
   * writes dirty blocks back, then waits until no inode deleted so far is withheld.
   */
  settle(): void {
    this.quiet();
    const wait = this.lastEnded + this.windowMs - Date.now();
    if (wait <= 0) return;
    this.log(`waiting ${Math.ceil(wait / 1000)} s: the file system withholds inodes deleted in the last ${this.windowMs / 1000} s (scripts/bench/recent-deletions.ts)`);
    sleep(wait / 1000);
    execFileSync('sync');
  }

  /**
   * Before a measure that makes no file (the answerer's, the servers'): ends background removals
   * and writes dirty blocks back, so that neither takes a core or the disk meanwhile.
   */
  quiet(): void {
    const pending = this.backgroundRemovals();
    if (pending.length > 0) {
      // Removed here, not only waited for: a bench stopped before its background removal ended leaves
      // trees that nobody deletes. (`rm -rf` beside a removal still running is harmless.)
      this.log(`removing ${pending.length} trees left to delete by an earlier bench or rebuild (${pending[0]}, ...)`);
      spawnSync('rm', ['-rf', ...pending.map((entry) => path.join(this.folder, entry))]);
      for (const started = Date.now(); this.backgroundRemovals().length > 0 && Date.now() - started < 1_800_000; ) sleep(0.5);
      this.deleted();
    }
    execFileSync('sync');
  }

  private backgroundRemovals(): string[] {
    return readdirSync(this.folder).filter((entry) => /^\..+\.trash-/.test(entry));
  }
}

/** ext4 mounted without a journal: the only file system known here to withhold deleted inodes. */
function withholdsRecentInodes(folder: string): boolean {
  const found = spawnSync('findmnt', ['-no', 'FSTYPE,SOURCE', '-T', folder], { encoding: 'utf8' }).stdout.trim().split(/\s+/);
  if (found[0] !== 'ext4' || found[1] === undefined) return false;
  const device = path.basename(found[1]);
  const journals = existsSync('/proc/fs/jbd2') ? readdirSync('/proc/fs/jbd2') : [];
  return !journals.some((journal) => journal.startsWith(`${device}-`));
}

function sleep(seconds: number): void {
  spawnSync('sleep', [seconds.toFixed(1)]);
}
