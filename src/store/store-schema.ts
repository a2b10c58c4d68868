import { ORDER_BY } from './client-queries.ts';
import { FILTERS, type FilterName, type Ordering } from '../contract.ts';

/**
 * The tables of the store's file: the clients and registrants read from the input
 * (record-store.ts), and the previous build's files (previous/previous-files.ts). Their indexes are built
 * after loading (`RecordStore.index`, by `indexStatements`).
 */
export const SCHEMA = `
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
    conflicted INTEGER NOT NULL DEFAULT 0,
    listed INTEGER NOT NULL DEFAULT 0 -- 1: read from a registrants file (listed even if no client embeds it)
  );
  CREATE TABLE previous_files (
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL
  );`;

/** The indexes of the orderings (`ORDER_BY` in client-queries.ts), and the one `clientIdBounds` reads. */
const INDEXES = `
  CREATE INDEX clients_by_name ON clients (name DESC, id DESC);
  CREATE INDEX clients_by_effective_date ON clients (effective_date IS NULL DESC, effective_date DESC, id DESC);
  CREATE INDEX clients_by_registrant ON clients (registrant_id);`;

/** Index names per ordering, for the indexes of a filter's field followed by an ordering. */
const INDEX_SUFFIX: Record<Ordering, string> = { '': '_id', '-id': '_id_desc', '-name': '_name', '-effective_date': '_effective_date' };

/**
 * The indexes of the orderings, and those the filters built read by:
 * - A filter by number (`registrant_id`, tens of thousands of values) is read value by value in
 *   each ordering: an index of each ordering within its values.
 * - A filter with a choice list (states, countries) has its lists cut from the unfiltered list's
 *   pass (`siteUnits`), so it is only counted by value: an index of its field.
 * None is partial (`WHERE column IS NOT NULL`): SQLite drops that term from a query on a NOT NULL
 * column, and then cannot use such an index.
 */
export function indexStatements(filters: readonly FilterName[]): string[] {
  const statements = [INDEXES];
  for (const filter of filters) {
    const column = FILTERS[filter].field;
    if (FILTERS[filter].values !== 'number') {
      statements.push(`CREATE INDEX clients_by_${column} ON clients (${column})`);
      continue;
    }
    for (const [ordering, order] of Object.entries(ORDER_BY)) {
      statements.push(`CREATE INDEX clients_by_${column}${INDEX_SUFFIX[ordering as Ordering]} ON clients (${column}, ${order.replaceAll('c.', '')})`);
    }
  }
  return statements;
}
