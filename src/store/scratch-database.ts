import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * A SQLite file that lives for one command and is thrown away after it: durability buys nothing, so
 * no journal and no syncs, and a fixed cache so memory does not grow with the data.
 */
export function openScratchDatabase(file: string, options: { create: boolean; cacheMb: number }): Database.Database {
  if (options.create) removeStoreFile(file);
  const db = new Database(file, { fileMustExist: !options.create });
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${options.cacheMb * 1024}`);
  db.pragma('temp_store = FILE');
  return db;
}

export function removeStoreFile(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}
