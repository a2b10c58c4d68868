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
 * Supported `ordering` values. `''` is the absent parameter (ascending id). The value is also the
 * folder name of that ordering's pages, except for the absent one.
 */
export const ORDERINGS = ['', '-id', '-name', '-effective_date'] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** Supported `format` values. `''` is the absent parameter. */
export const FORMATS = ['', 'api', 'json'] as const;
export type Format = (typeof FORMATS)[number];

/** Folder name of an ordering or a format in the output ("none" when the parameter is absent). */
export function folderName(value: Ordering | Format): string {
  return value === '' ? 'none' : value;
}

/**
 * Filters of the live service. The mirror does not precompute them, so a request using one gets a
 * 400 instead of a silently unfiltered page (contract section 3).
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

/** Headers on every API answer, errors included (contract section 5). */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/json',
  Vary: 'Accept',
  Allow: 'GET',
});

export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;
