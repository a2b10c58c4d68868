import type Database from 'better-sqlite3';
import { openScratchDatabase, removeStoreFile } from './scratch-database.ts';
import type { Ordering } from '../contract.ts';

/**
 * The store between reading records and writing pages: a SQLite file, so that the build's memory does
 * not grow with the registry. It is the only user of better-sqlite3. Records are kept as JSON text of
 * their fields (serialized once, at load), plus the columns the orderings sort by.
 */
export class RecordStore {
  private readonly insertClient: Database.Statement;
  private readonly insertRegistrant: Database.Statement;
  private readonly insertPreviousFile: Database.Statement;
  private readonly takePrevious: Database.Statement;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.insertClient = db.prepare(`
      INSERT INTO clients (id, name, effective_date, registrant_id, fields) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET
        name = excluded.name, effective_date = excluded.effective_date,
        registrant_id = excluded.registrant_id, fields = excluded.fields, replaced = replaced + 1`);
    // Contract section 7: the copy with the latest dt_updated is served everywhere (ties: the later).
    this.insertRegistrant = db.prepare(`
      INSERT INTO registrants (id, updated, fields) VALUES (?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET
        conflicted = conflicted OR fields <> excluded.fields,
        fields = iif(excluded.updated >= updated, excluded.fields, fields),
        updated = max(excluded.updated, updated)`);
    this.insertPreviousFile = db.prepare('INSERT OR REPLACE INTO previous_files (path, size, hash) VALUES (?, ?, ?)');
    this.takePrevious = db.prepare('DELETE FROM previous_files WHERE path = ? RETURNING size, hash');
  }

  /** A new, empty store at `file` (an existing file there is replaced). */
  static create(file: string): RecordStore {
    const db = openScratchDatabase(file, { create: true, cacheMb: 64 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec(SCHEMA);
    return new RecordStore(db, file);
  }

  /** The store a previous step created, e.g. opened again by the render thread. */
  static open(file: string): RecordStore {
    // Reads go in index order and the registrants are few: a small cache does, and keeps memory flat.
    const db = openScratchDatabase(file, { create: false, cacheMb: 16 });
    return new RecordStore(db, file);
  }

  /** Runs `work` in one transaction: loading row by row outside one is a hundred times slower. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /** A later client with the same id replaces the earlier one (contract section 7). */
  addClient(id: number, name: string, effectiveDate: string | null, registrantId: number, fields: string): void {
    this.insertClient.run(id, name, effectiveDate, registrantId, fields);
  }

  addRegistrant(id: number, updated: number, fields: string): void {
    this.insertRegistrant.run(id, updated, fields);
  }

  /** A file of the previous build, from its manifest: what an unchanged file will be compared with. */
  addPreviousFile(path: string, size: number, hash: string): void {
    this.insertPreviousFile.run(path, size, hash);
  }

  /** The previous build's size and hash of a path, taken off the list of files not seen yet. */
  takePreviousFile(path: string): { size: number; hash: string } | undefined {
    return this.takePrevious.get(path) as { size: number; hash: string } | undefined;
  }

  /** Files of the previous build not taken: those the new build no longer has. */
  *remainingPreviousFiles(): Generator<string> {
    yield* this.db.prepare('SELECT path FROM previous_files ORDER BY path').pluck().iterate() as IterableIterator<string>;
  }

  /** Builds the indexes of the orderings; faster once, after loading, than row by row. */
  index(): void {
    this.db.exec(INDEXES);
  }

  counts(): StoreCounts {
    const row = this.db
      .prepare(
        `SELECT (SELECT count(*) FROM clients) AS clients,
                (SELECT coalesce(sum(replaced), 0) FROM clients) AS replacedClients,
                (SELECT count(*) FROM registrants WHERE id IN (SELECT registrant_id FROM clients)) AS registrants,
                (SELECT count(*) FROM registrants WHERE conflicted AND id IN (SELECT registrant_id FROM clients))
                  AS conflictedRegistrants`,
      )
      .get() as StoreCounts;
    return row;
  }

  /** Every client with its registrant, in the order of an `ordering` value (contract section 3). */
  *clientsInOrder(ordering: Ordering): Generator<StoredClient> {
    yield* this.db.prepare(clientsInOrderSql(ordering)).iterate() as IterableIterator<StoredClient>;
  }

  /** Every registrant that some client embeds, by id. */
  *registrants(): Generator<{ id: number; fields: string }> {
    const statement = this.db.prepare(
      `SELECT id, fields FROM registrants WHERE id IN (SELECT registrant_id FROM clients) ORDER BY id`,
    );
    yield* statement.iterate() as IterableIterator<{ id: number; fields: string }>;
  }

  /** How SQLite will read an ordering: tests use it to pin that no ordering sorts in memory. */
  queryPlan(ordering: Ordering): string[] {
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${clientsInOrderSql(ordering)}`).all() as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  close(): void {
    this.db.close();
  }

  /** Closes and deletes the file. */
  destroy(): void {
    if (this.db.open) this.db.close();
    removeStoreFile(this.file);
  }
}

/** A client as it comes out of the store: its own fields and its registrant's, already JSON text. */
export interface StoredClient {
  id: number;
  fields: string;
  registrantId: number;
  registrantFields: string;
}

export interface StoreCounts {
  clients: number;
  replacedClients: number;
  registrants: number;
  conflictedRegistrants: number;
}


const SCHEMA = `
  CREATE TABLE clients (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    effective_date TEXT,
    registrant_id INTEGER NOT NULL,
    fields TEXT NOT NULL,          -- JSON text of the keys between url and registrant
    replaced INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE registrants (
    id INTEGER PRIMARY KEY,
    updated INTEGER NOT NULL,      -- dt_updated in UTC microseconds
    fields TEXT NOT NULL,          -- JSON text of the keys after url
    conflicted INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE previous_files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL
  ) WITHOUT ROWID;`;

/**
 * SQLite's BINARY collation compares UTF-8 bytes, which is Unicode code point order: what the
 * contract asks for names. Dates are YYYY-MM-DD text, so text order is date order.
 */
const ORDER_BY: Record<Ordering, string> = {
  '': 'c.id',
  '-id': 'c.id DESC',
  '-name': 'c.name DESC, c.id DESC',
  '-effective_date': 'c.effective_date IS NULL DESC, c.effective_date DESC, c.id DESC',
};

function clientsInOrderSql(ordering: Ordering): string {
  return `SELECT c.id AS id, c.fields AS fields, r.id AS registrantId, r.fields AS registrantFields
    FROM clients AS c JOIN registrants AS r ON r.id = c.registrant_id
    ORDER BY ${ORDER_BY[ordering]}`;
}

const INDEXES = `
  CREATE INDEX clients_by_name ON clients (name DESC, id DESC);
  CREATE INDEX clients_by_effective_date ON clients (effective_date IS NULL DESC, effective_date DESC, id DESC);
  CREATE INDEX clients_by_registrant ON clients (registrant_id);`;
