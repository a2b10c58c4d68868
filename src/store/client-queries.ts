import type Database from 'better-sqlite3';
import { FILTERS, type ClientText, type FilterName, type Ordering } from '../contract.ts';

/** A client as it comes out of the store: its own fields and its registrant's, already JSON text. */
export interface StoredClient extends ClientText {
  /** 1 when the client's and its registrant's fields are ASCII only: their UTF-8 bytes are their Latin-1 bytes. */
  ascii: number;
}

/** A registrant's fields as the clients embed them, and whether they are ASCII only (1) or not (0). */
export interface RegistrantFields {
  fields: string;
  ascii: number;
}

/**
 * SQLite's BINARY collation compares UTF-8 bytes, which is Unicode code point order: what the
 * contract asks for names. Dates are YYYY-MM-DD text, so text order is date order.
 */
export const ORDER_BY: Record<Ordering, string> = {
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
export function clientsInOrderSql(ordering: Ordering, columns = '', where = ''): string {
  return `SELECT c.id, c.fields, c.registrant_id, c.ascii${columns} FROM clients AS c ${where} ORDER BY ${ORDER_BY[ordering]}`;
}

/** The clients that have a value of a filter, by value, then in an ordering (for a filter by number, through its index of that). */
export function clientsByFilterSql(filter: FilterName, ordering: Ordering): string {
  const column = FILTERS[filter].field;
  return `SELECT c.id, c.fields, c.registrant_id, c.ascii, c.${column}
    FROM clients AS c
    WHERE c.${column} IS NOT NULL
    ORDER BY c.${column}, ${ORDER_BY[ordering]}`;
}

/** A client's columns in the order the queries above select them, and any more after them. */
type ClientRow = [id: number, fields: string, registrantId: number, ascii: number, ...more: (string | number | null)[]];

/**
 * The clients a query selects (in `ClientRow`'s columns), each with its registrant's fields, as
 * objects made here: better-sqlite3 builds a row object property by property, which cost more than
 * reading the row (each list reads every client).
 */
export function* clientsOf(
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
