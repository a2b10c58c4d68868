import Database from 'better-sqlite3';

/**
 * An advisory lock that the kernel releases when its holder dies: SQLite's exclusive transaction,
 * held on an open file through POSIX record locks. Unlike a PID written into a file, it cannot be
 * left behind by a killed process (a zombie whose parent has not reaped it yet has closed its files
 * already), nor be mistaken for some other live process after a reboot. It holds between two
 * connections of one process as well as between processes.
 */
export interface ExclusiveLock {
  release(): void;
}

/**
 * Takes the lock of `file` (created if missing, and never deleted: a process that opened the old
 * file could otherwise hold a lock on it while another locks a new one), or returns undefined at
 * once when someone else holds it.
 */
export function tryExclusiveLock(file: string): ExclusiveLock | undefined {
  const db = new Database(file, { timeout: 0 });
  try {
    // The lock is all this file is for: its journal in memory, so a killed holder leaves no file to recover.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw new Error(`cannot lock ${file}: ${(error as Error).message}`, { cause: error });
  }
  return {
    release() {
      if (!db.open) return;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}
