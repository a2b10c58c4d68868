import type Database from 'better-sqlite3';
import { openScratchDatabase, removeStoreFile } from './scratch-database.ts';

/**
 * The files of a built folder, by path, and which of them some link reaches: in a SQLite file, so
 * that checking ten times the registry (1.7 million files) does not hold every path in memory.
 */
export class PathIndex {
  private readonly insert: Database.Statement;
  private readonly find: Database.Statement;
  private readonly mark: Database.Statement;
  private readonly markSeen: Database.Statement;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.insert = db.prepare('INSERT OR REPLACE INTO files (path, size, hash) VALUES (?, ?, ?)');
    this.find = db.prepare('SELECT size, hash FROM files WHERE path = ?');
    this.mark = db.prepare('UPDATE files SET linked = 1 WHERE path = ?');
    this.markSeen = db.prepare('UPDATE files SET seen = 1 WHERE path = ? RETURNING size, hash');
  }

  static create(file: string): PathIndex {
    const db = openScratchDatabase(file, { create: true, cacheMb: 16 });
    db.exec('CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, hash TEXT, linked INTEGER NOT NULL DEFAULT 0, seen INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID');
    return new PathIndex(db, file);
  }

  addAll(entries: readonly { path: string; size: number; hash: string }[]): void {
    this.db.transaction(() => entries.forEach((entry) => this.insert.run(entry.path, entry.size, entry.hash)))();
  }

  get(path: string): { size: number; hash: string } | undefined {
    return this.find.get(path) as { size: number; hash: string } | undefined;
  }

  /** Records that `path` is in the folder; its listed size and hash, if the manifest has it. */
  see(path: string): { size: number; hash: string } | undefined {
    return this.markSeen.get(path) as { size: number; hash: string } | undefined;
  }

  /** Listed paths never seen in the folder. */
  *unseen(): Generator<string> {
    yield* this.db.prepare('SELECT path FROM files WHERE seen = 0 ORDER BY path').pluck().iterate() as IterableIterator<string>;
  }

  /** Records that a link reaches `path`; false when there is no such file. */
  markLinked(path: string): boolean {
    return this.mark.run(path).changes > 0;
  }

  *unlinked(): Generator<string> {
    yield* this.db.prepare('SELECT path FROM files WHERE linked = 0 ORDER BY path').pluck().iterate() as IterableIterator<string>;
  }

  /** Files whose path starts with `prefix`. */
  countUnder(prefix: string): number {
    return this.db.prepare('SELECT count(*) FROM files WHERE path >= ? AND path < ?').pluck().get(prefix, `${prefix}\u{10FFFF}`) as number;
  }

  destroy(): void {
    if (this.db.open) this.db.close();
    removeStoreFile(this.file);
  }
}
