import type Database from 'better-sqlite3';

/**
 * What the query bundle is rendered from (render/bundle-files.ts): the clients with the columns its
 * index keeps, in id order and in name order, and the registrants some client embeds. Read row by
 * row as arrays, as the pages' passes read the clients.
 */
export interface BundleClientRow {
  id: number;
  name: string;
  fields: string;
  registrantId: number;
  effectiveDate: string | null;
  state: string | null;
  country: string | null;
  ppbState: string | null;
  ppbCountry: string | null;
}

export interface BundleRows {
  clientCount: number;
  clients(): Iterable<BundleClientRow>;
  clientsByName(): Iterable<{ id: number; name: string }>;
  /** `updated`: dt_updated in UTC microseconds, Number.MIN_SAFE_INTEGER when it has none (store-schema.ts). */
  registrants(): Iterable<{ id: number; fields: string; updated: number }>;
  /** Each client's id and its registrant's, in id order: what the overlay's eviction weighs (render/registrant-overlay.ts). */
  clientRegistrants(): Iterable<[number, number]>;
}

type Row = [number, string, string, number, string | null, string | null, string | null, string | null, string | null];

export function bundleRows(db: Database.Database, registrants: () => Iterable<{ id: number; fields: string; updated: number }>): BundleRows {
  return {
    clientCount: db.prepare('SELECT count(*) FROM clients').pluck().get() as number,
    *clients() {
      const statement = db.prepare('SELECT id, name, fields, registrant_id, effective_date, state, country, ppb_state, ppb_country FROM clients ORDER BY id');
      for (const row of statement.raw().iterate() as IterableIterator<Row>) {
        yield { id: row[0], name: row[1], fields: row[2], registrantId: row[3], effectiveDate: row[4], state: row[5], country: row[6], ppbState: row[7], ppbCountry: row[8] };
      }
    },
    *clientsByName() {
      // SQLite's BINARY collation compares UTF-8 bytes: code point order, as the contract asks; read backwards from the name index.
      for (const [id, name] of db.prepare('SELECT id, name FROM clients ORDER BY name, id').raw().iterate() as IterableIterator<[number, string]>) yield { id, name };
    },
    registrants,
    clientRegistrants: () => db.prepare('SELECT id, registrant_id FROM clients ORDER BY id').raw().iterate() as IterableIterator<[number, number]>,
  };
}
