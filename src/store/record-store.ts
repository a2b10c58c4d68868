import type Database from 'better-sqlite3';
import { openScratchDatabase, removeStoreFile } from './scratch-database.ts';
import { FILTERS, type FilterName, type Ordering } from '../contract.ts';

/**
 * The store between reading records and writing pages: a SQLite file, so that the build's memory does
 * not grow with the registry. It is the only user of better-sqlite3. Records are kept as JSON text of
 * their fields (serialized once, at load), plus the columns the orderings sort by.
 */
export class RecordStore {
  private readonly insertClient: Database.Statement;
  private readonly insertRegistrant: Database.Statement;
  private readonly insertPreviousFile: Database.Statement;
  /** `registrantsById`, once read. */
  private registrantFields: Map<number, RegistrantFields> | undefined;
  /** `filterValueCounts` per filter, once counted. */
  private valueCounts: Map<FilterName, ValueCount[]> | undefined;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.insertClient = db.prepare(`
      INSERT INTO clients (id, name, effective_date, registrant_id, fields, state, country, ppb_state, ppb_country)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET
        name = excluded.name, effective_date = excluded.effective_date,
        registrant_id = excluded.registrant_id, fields = excluded.fields,
        state = excluded.state, country = excluded.country,
        ppb_state = excluded.ppb_state, ppb_country = excluded.ppb_country, replaced = replaced + 1`);
    // Contract section 7: the copy with the latest dt_updated is served everywhere (ties: the later).
    this.insertRegistrant = db.prepare(`
      INSERT INTO registrants (id, updated, fields) VALUES (?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET
        conflicted = conflicted OR fields <> excluded.fields,
        fields = iif(excluded.updated >= updated, excluded.fields, fields),
        updated = max(excluded.updated, updated)`);
    this.insertPreviousFile = db.prepare('INSERT OR REPLACE INTO previous_files (path, size, hash) VALUES (?, ?, ?)');
  }

  /**
   * A new, empty store at `file` (an existing file there is replaced). Its cache is as small as a
   * render thread's: the pages it held stay in this process's memory, freed but not given back, while
   * the render threads run, and 32 MB bought no faster load or index (at 134,719 and 300,000 records
   * on tmpfs, the same seconds; peak RSS 8-13 MB lower at 134,719, 17 MB at 300,000 with one format).
   */
  static create(file: string): RecordStore {
    const db = openScratchDatabase(file, { create: true, cacheMb: 8 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec(SCHEMA);
    return new RecordStore(db, file);
  }

  /** The store a previous step created, e.g. opened again by the render thread. */
  static open(file: string): RecordStore {
    // Reads go in index order and the registrants are few: a small cache does, and keeps memory flat.
    const db = openScratchDatabase(file, { create: false, cacheMb: 8 });
    return new RecordStore(db, file);
  }

  /** Runs `work` in one transaction: loading row by row outside one is a hundred times slower. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /** A later client with the same id replaces the earlier one (contract section 7). */
  addClient(id: number, name: string, effectiveDate: string | null, registrantId: number, fields: string, codes: FilterCodes): void {
    this.valueCounts = undefined;
    this.insertClient.run(id, name, effectiveDate, registrantId, fields, codes.state, codes.country, codes.ppb_state, codes.ppb_country);
  }

  addRegistrant(id: number, updated: number, fields: string): void {
    this.registrantFields = undefined;
    this.insertRegistrant.run(id, updated, fields);
  }

  /** A file of the previous build, from its manifest: what an unchanged file will be compared with. */
  addPreviousFile(path: string, size: number, hash: string): void {
    this.insertPreviousFile.run(path, size, hash);
  }

  /**
   * The previous build's files, for a render thread to look up: each has a number (1 to
   * `previousFileCount`), so that the threads can mark those they met in a shared bitmap.
   */
  previousFiles(): (path: string) => { row: number; size: number; hash: string } | undefined {
    const lookup = this.db.prepare('SELECT rowid AS row, size, hash FROM previous_files WHERE path = ?');
    return (path) => lookup.get(path) as { row: number; size: number; hash: string } | undefined;
  }

  previousFileCount(): number {
    return (this.db.prepare('SELECT coalesce(max(rowid), 0) FROM previous_files').pluck().get() as number);
  }

  /** Files of the previous build whose number `met` says no thread met: those the new build no longer has. */
  *previousFilesNotMet(met: (row: number) => boolean): Generator<string> {
    for (const [row, path] of this.db.prepare('SELECT rowid, path FROM previous_files ORDER BY path').raw().iterate() as IterableIterator<[number, string]>) {
      if (!met(row)) yield path;
    }
  }

  /**
   * Builds the indexes of the orderings, and those the filters built read by: faster once, after
   * loading, than row by row.
   * - A filter by number (`registrant_id`, tens of thousands of values) is read value by value in
   *   each ordering: an index of each ordering within its values.
   * - A filter with a choice list (states, countries) has its lists cut from the unfiltered list's
   *   pass (`siteUnits`), so it is only counted by value: an index of its field.
   * None is partial (`WHERE column IS NOT NULL`): SQLite drops that term from a query on a NOT NULL
   * column, and then cannot use such an index.
   */
  index(filters: readonly FilterName[] = []): void {
    this.db.exec(INDEXES);
    for (const filter of filters) {
      const column = FILTERS[filter].field;
      if (FILTERS[filter].values !== 'number') {
        this.db.exec(`CREATE INDEX clients_by_${column} ON clients (${column})`);
        continue;
      }
      for (const [ordering, order] of Object.entries(ORDER_BY)) {
        this.db.exec(`CREATE INDEX clients_by_${column}${INDEX_SUFFIX[ordering as Ordering]} ON clients (${column}, ${order.replaceAll('c.', '')})`);
      }
    }
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

  /**
   * Every client with its registrant, in the order of an `ordering` value (contract section 3), and
   * its value of each of `filters` (null when it has none), in their order.
   */
  *clientsInOrder(ordering: Ordering, filters: readonly FilterName[] = []): Generator<StoredClient & { values: (string | number | null)[] }> {
    const columns = filters.map((filter) => `, c.${FILTERS[filter].field}`).join('');
    yield* clientsOf(this.registrantsById(), this.db.prepare(clientsInOrderSql(ordering, columns)));
  }

  /** The clients whose id is from `from` (inclusive) to `to` (exclusive), by id; null: no bound. */
  *clientsInIdRange(from: number | null, to: number | null): Generator<StoredClient> {
    const sql = clientsInOrderSql('', '', 'WHERE c.id >= ? AND c.id < ?');
    yield* clientsOf(this.registrantsById(), this.db.prepare(sql), from ?? Number.MIN_SAFE_INTEGER, to ?? Number.MAX_SAFE_INTEGER);
  }

  /** The ids of the clients whose id is from `from` (inclusive) to `to` (exclusive), in order; null: no bound. */
  *clientIdsInRange(from: number | null, to: number | null): Generator<number> {
    const statement = this.db.prepare('SELECT id FROM clients WHERE id >= ? AND id < ? ORDER BY id').pluck();
    yield* statement.iterate(from ?? Number.MIN_SAFE_INTEGER, to ?? Number.MAX_SAFE_INTEGER) as IterableIterator<number>;
  }

  /** The ids of the registrants that some client embeds (those `registrants` yields), in order. */
  *registrantIds(): Generator<number> {
    yield* this.db.prepare('SELECT id FROM registrants WHERE id IN (SELECT registrant_id FROM clients) ORDER BY id').pluck().iterate() as IterableIterator<number>;
  }

  /** How many clients there are, and the largest id among them (0 when none). */
  clientIds(): { count: number; largest: number } {
    return this.db.prepare('SELECT count(*) AS count, coalesce(max(id), 0) AS largest FROM clients').get() as { count: number; largest: number };
  }

  /**
   * Ids that cut the clients, in id order, into `parts` ranges of about the same size (fewer bounds
   * when there are fewer clients). Read off the registrant index, far smaller than the table.
   */
  clientIdBounds(parts: number): number[] {
    const ids = (this.db.prepare('SELECT id FROM clients INDEXED BY clients_by_registrant').pluck().all() as number[]).sort((a, b) => a - b);
    const bounds: number[] = [];
    for (let part = 1; part < parts; part++) {
      const id = ids[Math.floor((part * ids.length) / parts)];
      if (id !== undefined && id !== bounds.at(-1) && id !== ids[0]) bounds.push(id);
    }
    return bounds;
  }

  /**
   * Every client that has a value for a filter's field, by value (in BINARY order), then in the order
   * of an `ordering` value: the filtered lists one after the other; `values[0]` is the client's value.
   * Read from an index for a filter by number; a choice filter's clients are sorted by SQLite (the
   * build cuts its lists otherwise).
   */
  *clientsByFilter(filter: FilterName, ordering: Ordering): Generator<StoredClient & { values: (string | number | null)[] }> {
    yield* clientsOf(this.registrantsById(), this.db.prepare(clientsByFilterSql(filter, ordering)));
  }

  /**
   * How many clients have each value of a filter's field. Counted once per connection until a client
   * is stored: a render thread needs them for each unit of the filter, for its folders and its lists.
   */
  filterValueCounts(filter: FilterName): readonly ValueCount[] {
    const counted = (this.valueCounts ??= new Map()).get(filter);
    if (counted !== undefined) return counted;
    const column = FILTERS[filter].field;
    const counts = this.db.prepare(`SELECT ${column} AS value, count(*) AS count FROM clients WHERE ${column} IS NOT NULL GROUP BY ${column}`).all() as ValueCount[];
    this.valueCounts.set(filter, counts);
    return counts;
  }

  /** Every registrant that some client embeds, by id. */
  *registrants(): Generator<{ id: number; fields: string; ascii: number }> {
    const statement = this.db.prepare(
      `SELECT id, fields, ascii FROM registrants WHERE id IN (SELECT registrant_id FROM clients) ORDER BY id`,
    );
    yield* statement.iterate() as IterableIterator<{ id: number; fields: string; ascii: number }>;
  }

  /** How SQLite will read an ordering (of one filter's lists): tests use it to pin that none sorts in memory. */
  queryPlan(ordering: Ordering, filter?: FilterName): string[] {
    const sql = filter === undefined ? clientsInOrderSql(ordering) : clientsByFilterSql(filter, ordering);
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  /**
   * Every registrant's fields by id, read on the first pass over the clients and kept for the
   * connection's life: a few thousand registrants for a hundred thousand clients (9 MB of text at
   * 134,719 clients), where a join would read and copy them once per client per pass.
   */
  private registrantsById(): ReadonlyMap<number, RegistrantFields> {
    if (this.registrantFields !== undefined) return this.registrantFields;
    const byId = new Map<number, RegistrantFields>();
    for (const [id, fields, ascii] of this.db.prepare('SELECT id, fields, ascii FROM registrants').raw().iterate() as IterableIterator<[number, string, number]>) {
      byId.set(id, { fields, ascii });
    }
    return (this.registrantFields = byId);
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
  /** 1 when the client's and its registrant's fields are ASCII only: their UTF-8 bytes are their Latin-1 bytes. */
  ascii: number;
}

/** A value of a filter's field, and how many clients have it. */
export interface ValueCount {
  value: string | number;
  count: number;
}

/** The client's codes that the state and country filters compare; null when it has none. */
export interface FilterCodes {
  state: string | null;
  country: string | null;
  ppb_state: string | null;
  ppb_country: string | null;
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
    ascii INTEGER GENERATED ALWAYS AS (length(fields) = octet_length(fields)) STORED,
    state TEXT,                    -- the codes the filters compare (contract section 8)
    country TEXT,
    ppb_state TEXT,
    ppb_country TEXT,
    replaced INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE registrants (
    id INTEGER PRIMARY KEY,
    updated INTEGER NOT NULL,      -- dt_updated in UTC microseconds
    fields TEXT NOT NULL,          -- JSON text of the keys after url
    ascii INTEGER GENERATED ALWAYS AS (length(fields) = octet_length(fields)) STORED,
    conflicted INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE previous_files (
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL
  );`;

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

const NO_VALUES: (string | number | null)[] = [];

/**
 * The clients' own columns (`ClientRow`), without their registrants': those come from
 * `RecordStore.registrantsById`, read once. Joining them in SQLite cost each pass a lookup and a
 * new string of the registrant's fields per client, about 40% of reading the clients (issue 13).
 * `columns`: more columns after those of `ClientRow`, each with its leading comma; `where`: a WHERE
 * clause on `c`, or none.
 */
function clientsInOrderSql(ordering: Ordering, columns = '', where = ''): string {
  return `SELECT c.id, c.fields, c.registrant_id, c.ascii${columns} FROM clients AS c ${where} ORDER BY ${ORDER_BY[ordering]}`;
}

/** The clients that have a value of a filter, by value, then in an ordering (for a filter by number, through its index of that). */
function clientsByFilterSql(filter: FilterName, ordering: Ordering): string {
  const column = FILTERS[filter].field;
  return `SELECT c.id, c.fields, c.registrant_id, c.ascii, c.${column}
    FROM clients AS c
    WHERE c.${column} IS NOT NULL
    ORDER BY c.${column}, ${ORDER_BY[ordering]}`;
}

/** A client's columns in the order the queries above select them, and any more after them. */
type ClientRow = [id: number, fields: string, registrantId: number, ascii: number, ...more: (string | number | null)[]];

/** A registrant's fields as the clients embed them, and whether they are ASCII only (1) or not (0). */
interface RegistrantFields {
  fields: string;
  ascii: number;
}

/**
 * The clients a query selects (in `ClientRow`'s columns), each with its registrant's fields, as
 * objects made here: better-sqlite3 builds a row object property by property, which cost more than
 * reading the row (each list reads every client).
 */
function* clientsOf(
  registrants: ReadonlyMap<number, RegistrantFields>,
  statement: Database.Statement,
  ...parameters: number[]
): Generator<StoredClient & { values: (string | number | null)[] }> {
  for (const row of statement.raw().iterate(...parameters) as IterableIterator<ClientRow>) {
    const registrant = registrants.get(row[2]);
    // Every client's registrant is stored with it (`addRegistrant` beside `addClient`).
    if (registrant === undefined) throw new Error(`the store has no registrant ${row[2]} for client ${row[0]}`);
    const values = row.length > 4 ? row.slice(4) : NO_VALUES;
    yield { id: row[0], fields: row[1], registrantId: row[2], registrantFields: registrant.fields, ascii: row[3] & registrant.ascii, values };
  }
}

/** Index names per ordering, for the indexes of a filter's field followed by an ordering. */
const INDEX_SUFFIX: Record<Ordering, string> = { '': '_id', '-id': '_id_desc', '-name': '_name', '-effective_date': '_effective_date' };

const INDEXES = `
  CREATE INDEX clients_by_name ON clients (name DESC, id DESC);
  CREATE INDEX clients_by_effective_date ON clients (effective_date IS NULL DESC, effective_date DESC, id DESC);
  CREATE INDEX clients_by_registrant ON clients (registrant_id);`;
