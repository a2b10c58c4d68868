import type Database from 'better-sqlite3';
import { openScratchDatabase, removeStoreFile } from './scratch-database.ts';

/**
 * A built folder's manifest, by path, and which of its files were found in the folder: in a SQLite
 * file, so that checking ten times the registry (1.7 million files) does not hold every entry in memory.
 */
export class PathIndex {
  private readonly insert: Database.Statement;
  private readonly markSeen: Database.Statement;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.insert = db.prepare('INSERT OR REPLACE INTO files (path, size, hash) VALUES (?, ?, ?)');
    this.markSeen = db.prepare('UPDATE files SET seen = 1 WHERE path = ? RETURNING size, hash');
  }

  static create(file: string): PathIndex {
    const db = openScratchDatabase(file, { create: true, cacheMb: 16 });
    db.exec('CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, hash TEXT, seen INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID');
    return new PathIndex(db, file);
  }

  addAll(entries: readonly { path: string; size: number; hash: string }[]): void {
    this.db.transaction(() => entries.forEach((entry) => this.insert.run(entry.path, entry.size, entry.hash)))();
  }

  /** Runs `work` in one transaction: one update per file outside one costs a commit each. */
  transaction(work: () => void): void {
    this.db.transaction(work)();
  }

  /** Records that `path` is in the folder; its listed size and hash, if the manifest has it. */
  see(path: string): { size: number; hash: string } | undefined {
    return this.markSeen.get(path) as { size: number; hash: string } | undefined;
  }

  /** Listed paths never seen in the folder. */
  *unseen(): Generator<string> {
    yield* this.db.prepare('SELECT path FROM files WHERE seen = 0 ORDER BY path').pluck().iterate() as IterableIterator<string>;
  }

  destroy(): void {
    if (this.db.open) this.db.close();
    removeStoreFile(this.file);
  }
}
