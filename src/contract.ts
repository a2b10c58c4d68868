/**
 * The fixed points of the behaviour contract (shared/spec/contract.md), in one place, so that the
 * renderer, the planner and the request resolver cannot disagree about them.
 */

/** Clients per page of the list (contract section 3). */
export const PAGE_SIZE = 25;

export const LIST_PATH = '/api/v1/clients/';
export const CLIENT_PATH_PREFIX = '/api/v1/clients/';
export const REGISTRANT_PATH_PREFIX = '/api/v1/registrants/';

/** Client keys in the order of the seed's table (contract section 1). */
export const CLIENT_KEYS = [
  'id',
  'url',
  'client_id',
  'name',
  'general_description',
  'client_government_entity',
  'client_self_select',
  'state',
  'state_display',
  'country',
  'country_display',
  'ppb_state',
  'ppb_state_display',
  'ppb_country',
  'ppb_country_display',
  'effective_date',
  'registrant',
] as const;

/** Registrant keys in the order of the seed's table (contract section 1). */
export const REGISTRANT_KEYS = [
  'id',
  'url',
  'house_registrant_id',
  'name',
  'description',
  'address_1',
  'address_2',
  'address_3',
  'address_4',
  'city',
  'state',
  'state_display',
  'zip',
  'country',
  'country_display',
  'ppb_country',
  'ppb_country_display',
  'contact_name',
  'contact_telephone',
  'dt_updated',
] as const;

/** The keys stored as a record's "fields": everything between `url` and the embedded registrant. */
export const CLIENT_FIELD_KEYS = CLIENT_KEYS.slice(2, -1);
export const REGISTRANT_FIELD_KEYS = REGISTRANT_KEYS.slice(2);

/**
 * A client as its body is made: its id, its registrant's, and the fields of each as JSON text. The
 * store reads it from SQLite, the answerer from the query bundle; the renderer writes its bytes.
 */
export interface ClientText {
  id: number;
  fields: string;
  registrantId: number;
  registrantFields: string;
}

/** Longest id a record path is looked up by (the rewrite map's `idDigits`): no record has a longer one, and longer paths would only be long. */
export const MAX_ID_DIGITS = 16;

/**
 * Supported `ordering` values. `''` is the absent parameter (ascending id). The value is also the
 * folder name of that ordering's pages, except for the absent one.
 */
export const ORDERINGS = ['', '-id', '-name', '-effective_date'] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** Supported `format` values. `''` is the absent parameter. */
export const FORMATS = ['', 'api', 'json'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * Filters of the live service (contract section 8). The mirror precomputes the lists of the ones in
 * `FILTERS` that a build is asked for; the rest, and those not built, answer 400 with a `detail`
 * saying what to use instead, never a silently unfiltered page.
 */
export const LIVE_FILTERS = [
  'id',
  'client_name',
  'client_state',
  'client_country',
  'client_ppb_state',
  'client_ppb_country',
  'registrant_id',
  'registrant_name',
] as const;

/**
 * The filters a static file can answer: each compares one field of a client with the value, which is
 * either one of a fixed list of codes (`choices`) or a number (`number`, read as Python's Decimal).
 */
export const FILTERS = {
  registrant_id: { field: 'registrant_id', values: 'number' },
  client_state: { field: 'state', values: 'states' },
  client_country: { field: 'country', values: 'countries' },
  client_ppb_state: { field: 'ppb_state', values: 'states' },
  client_ppb_country: { field: 'ppb_country', values: 'countries' },
} as const;
export type FilterName = keyof typeof FILTERS;
export const FILTER_NAMES = Object.keys(FILTERS) as FilterName[];

/** What the live service's lookups that no static file can answer should be replaced with. */
export const UNANSWERABLE_FILTERS: Readonly<Record<string, string>> = Object.freeze({
  id: 'ask for the record itself: /api/v1/clients/<id>/',
  client_name: 'this mirror cannot search names; fetch the list and match client names yourself',
  registrant_name: 'this mirror cannot search names; find the registrant id and use registrant_id=<id>',
});

/** The registrants list's filters (contract section 10): where only files are served, each is a 400 naming it. */
export const REGISTRANT_FILTERS = ['id', 'registrant_name', 'state', 'country', 'ppb_country', 'dt_updated_after', 'dt_updated_before'] as const;

/** Headers on every API answer, errors included (contract section 5). */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json',
  Vary: 'Accept',
  Allow: 'GET',
});

export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

/** The Cache-Control of every answer unless the build says otherwise (plan/http-headers.ts says why). */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=3600';

/** The headers beyond the contract's that the build was told to send (`--cache-control`, `--cors`). */
export interface HttpSettings {
  /** `none`: no Cache-Control. */
  cacheControl: string;
  /** The origin allowed to read answers from a page, `*` for any; undefined: no CORS. */
  cors?: string;
}

/**
 * The answer to a CORS preflight (`OPTIONS`), where the build was told `--cors`: decided at build time
 * (plan/http-headers.ts) and recorded where every host reads it (the rewrite map, the bundle's manifest).
 */
export interface Preflight {
  status: 204;
  headers: Record<string, string>;
}
