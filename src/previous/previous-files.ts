import type { RecordStore } from '../store/record-store.ts';

/**
 * The previous build's files, from its manifest, in the store's table `previous_files`: what each
 * file of this build is compared with, to link an unchanged one instead of writing it, and what
 * tells which files the new build no longer has. Over a connection of the store
 * (`RecordStore.prepare`): a render thread looks files up through the connection it reads
 * clients by, within its one small cache, not a second one.
 */
export class PreviousFiles {
  private readonly insert;

  constructor(private readonly db: RecordStore) {
    this.insert = db.prepare('INSERT OR REPLACE INTO previous_files (path, size, hash) VALUES (?, ?, ?)');
  }

  /** A file of the previous build, from its manifest: what an unchanged file will be compared with. */
  add(path: string, size: number, hash: string): void {
    this.insert.run(path, size, hash);
  }

  /**
   * The previous build's files, for a render thread to look up: each has a number (1 to
   * `count`), so that the threads can mark those they met in a shared bitmap.
   */
  lookup(): (path: string) => { row: number; size: number; hash: string } | undefined {
    const lookup = this.db.prepare('SELECT rowid AS row, size, hash FROM previous_files WHERE path = ?');
    return (path) => lookup.get(path) as { row: number; size: number; hash: string } | undefined;
  }

  count(): number {
    return (this.db.prepare('SELECT coalesce(max(rowid), 0) FROM previous_files').pluck().get() as number);
  }

  /** Files of the previous build whose number `met` says no thread met: those the new build no longer has. */
  *notMet(met: (row: number) => boolean): Generator<string> {
    for (const [row, path] of this.db.prepare('SELECT rowid, path FROM previous_files ORDER BY path').raw().iterate() as IterableIterator<[number, string]>) {
      if (!met(row)) yield path;
    }
  }
}
