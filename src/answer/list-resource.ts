import { LIST_PATH, REGISTRANT_PATH_PREFIX } from '../contract.ts';

/**
 * The lists the mirror serves, as data: each is a list of records with its path, its filters (in the
 * order of the keys of a 400 body) and the fields `ordering` may name (contract sections 9 and 10).
 * The answerer reads a request through its resource's description; only where a kind of record is
 * kept differs (clients in index segments, registrants in one table: answer/list-engines.ts). A
 * third list is one more description here and the files that hold its records.
 */
export type RecordKind = 'client' | 'registrant';

/**
 * How a filter reads its value, as django-filter's form field does:
 * - `id`: a NumberFilter (Django's DecimalField cut to an integer) on the record's own id;
 * - `relatedId`: the same on the id of an embedded record;
 * - `name`: a CharField, the upper-cased name must hold it (`icontains`);
 * - `choice`: a ChoiceField over the build's state or country codes, exact;
 * - `dateTimeRange`: one bound of a DateTimeFromToRangeFilter (Django's DateTimeField), errors under `range`.
 */
export type FilterKind =
  | { kind: 'id' }
  | { kind: 'relatedId' }
  | { kind: 'name' }
  | { kind: 'choice'; choices: 'states' | 'countries' }
  | { kind: 'dateTimeRange'; range: string; bound: 'after' | 'before' };

export interface ListFilter {
  param: string;
  /** The column of the record it compares (the key of the criteria). */
  field: string;
  reading: FilterKind;
}

export interface ListResource {
  kind: RecordKind;
  /** The list's path; a record's path is `${path}<id>/`. */
  path: string;
  filters: readonly ListFilter[];
  /** `ordering` terms: the name a request uses and the column it sorts by (`id` always among them). */
  orderings: Readonly<Record<string, string>>;
}

const states = { kind: 'choice', choices: 'states' } as const;
const countries = { kind: 'choice', choices: 'countries' } as const;

export const CLIENTS: ListResource = {
  kind: 'client',
  path: LIST_PATH,
  filters: [
    { param: 'id', field: 'id', reading: { kind: 'id' } },
    { param: 'client_name', field: 'clientName', reading: { kind: 'name' } },
    { param: 'client_state', field: 'state', reading: states },
    { param: 'client_country', field: 'country', reading: countries },
    { param: 'client_ppb_state', field: 'ppbState', reading: states },
    { param: 'client_ppb_country', field: 'ppbCountry', reading: countries },
    { param: 'registrant_id', field: 'registrantId', reading: { kind: 'relatedId' } },
    { param: 'registrant_name', field: 'registrantName', reading: { kind: 'name' } },
  ],
  orderings: { id: 'id', name: 'name', effective_date: 'date' },
};

export const REGISTRANTS: ListResource = {
  kind: 'registrant',
  path: REGISTRANT_PATH_PREFIX,
  filters: [
    { param: 'id', field: 'id', reading: { kind: 'id' } },
    { param: 'registrant_name', field: 'name', reading: { kind: 'name' } },
    { param: 'state', field: 'state', reading: states },
    { param: 'country', field: 'country', reading: countries },
    { param: 'ppb_country', field: 'ppbCountry', reading: countries },
    { param: 'dt_updated_after', field: 'updatedAfter', reading: { kind: 'dateTimeRange', range: 'dt_updated', bound: 'after' } },
    { param: 'dt_updated_before', field: 'updatedBefore', reading: { kind: 'dateTimeRange', range: 'dt_updated', bound: 'before' } },
  ],
  orderings: { id: 'id', name: 'name', dt_updated: 'date' },
};

/** Every list, matched by path in this order. */
export const LIST_RESOURCES: readonly ListResource[] = [CLIENTS, REGISTRANTS];
