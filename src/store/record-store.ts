import type Database from 'better-sqlite3';
import { bundleRows, type BundleRows } from './bundle-rows.ts';
import { clientsByFilterSql, clientsInOrderSql, clientsOf, type RegistrantFields, type StoredClient } from './client-queries.ts';
import { openScratchDatabase, removeStoreFile } from './scratch-database.ts';
import { SCHEMA, indexStatements } from './store-schema.ts';
import { FILTERS, type FilterName, type Ordering } from '../contract.ts';

export type { StoredClient } from './client-queries.ts';

/**
 * The store between reading records and writing pages: a SQLite file, so that the build's memory does
 * not grow with the registry. It is the only user of better-sqlite3. Records are kept as JSON text of
 * their fields (serialized once, at load), plus the columns the orderings sort by.
 */
export class RecordStore {
  private readonly insertClient: Database.Statement;
  private readonly insertRegistrant: Database.Statement;
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
      INSERT INTO registrants (id, updated, fields, listed) VALUES (?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET
        listed = listed OR excluded.listed,
        conflicted = conflicted OR fields <> excluded.fields,
        fields = iif(excluded.updated >= updated, excluded.fields, fields),
        updated = max(excluded.updated, updated)`);
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

  /** `listed`: from a registrants file, so listed and served even when no client embeds it (contract section 10). */
  addRegistrant(id: number, updated: number, fields: string, listed = false): void {
    this.registrantFields = undefined;
    this.insertRegistrant.run(id, updated, fields, listed ? 1 : 0);
  }

  /**
   * A statement over this connection, for a table of the store's file that another room keeps: the
   * previous build's files (previous/previous-files.ts), looked up by a render thread through the
   * connection it reads clients by, within its one small cache.
   */
  prepare(sql: string): Database.Statement {
    return this.db.prepare(sql);
  }

  /** Builds the indexes of the orderings, and those the filters built read by (`indexStatements`): faster once, after loading, than row by row. */
  index(filters: readonly FilterName[] = []): void {
    for (const statement of indexStatements(filters)) this.db.exec(statement);
  }

  counts(): StoreCounts {
    const row = this.db
      .prepare(
        `SELECT (SELECT count(*) FROM clients) AS clients,
                (SELECT coalesce(sum(replaced), 0) FROM clients) AS replacedClients,
                (SELECT count(*) FROM registrants WHERE (listed OR id IN (SELECT registrant_id FROM clients))) AS registrants,
                (SELECT count(*) FROM registrants WHERE conflicted AND (listed OR id IN (SELECT registrant_id FROM clients)))
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

  /** The ids of the registrants listed (those `registrants` yields), in order. */
  *registrantIds(): Generator<number> {
    yield* this.db.prepare('SELECT id FROM registrants WHERE (listed OR id IN (SELECT registrant_id FROM clients)) ORDER BY id').pluck().iterate() as IterableIterator<number>;
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

  /** Every registrant listed, by id: those some client embeds, and those read from a registrants file. */
  *registrants(): Generator<{ id: number; fields: string; ascii: number; updated: number }> {
    const statement = this.db.prepare(
      `SELECT id, fields, ascii, updated FROM registrants WHERE (listed OR id IN (SELECT registrant_id FROM clients)) ORDER BY id`,
    );
    yield* statement.iterate() as IterableIterator<{ id: number; fields: string; ascii: number; updated: number }>;
  }

  /** The rows the query bundle is rendered from. */
  bundleRows(): BundleRows {
    return bundleRows(this.db, () => this.registrants());
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
