import type { Format, Ordering } from '../contract.ts';

/**
 * Where each answer lies in the output: a file's path reads as its URL. Everything the API serves is
 * under `api/v1/`; the build's bookkeeping (the rewrite map, error bodies, manifest) lies beside `api/`.
 *
 * - A list page: the folder names the list, one `name=value/` folder for each parameter that selects it
 *   (the filter, then format, then ordering; absent parameters add nothing), and the file names the
 *   page: `index.json` for the first, `page=N.json` for the others. `/api/v1/clients/` is
 *   `api/v1/clients/index.json`, `/api/v1/clients/?format=api&ordering=-id&page=2` is
 *   `api/v1/clients/format=api/ordering=-id/page=2.json`, `?client_state=TX&page=2` is
 *   `api/v1/clients/client_state=TX/page=2.json`. A filter's value is in canonical form.
 * - A record: its folder `api/v1/clients/<id>/` (`registrants/<id>/`), and the file names the format:
 *   `index.json` without one, `format=api.json` with `format=api`.
 *
 * So a host that serves `index.json` as a folder's index document answers the first page and every
 * record path with no configuration at all.
 */
export const API_FOLDER = 'api/';
export const INDEX_FILE = 'index.json';
/** The first page of a filter's value that no client has, shared by all of them: beside `api/`, as no URL names it. */
export const EMPTY_LIST_FILE = 'empty-list.json';

/** The folder (with its final `/`, or `''`) that a parameter's value selects: `format=api/`. */
export function parameterFolder(name: string, value: string): string {
  return value === '' ? '' : `${name}=${value}/`;
}

/** The file of a page inside its list's folder: `index.json` for the first. */
export function pageFileName(page: number): string {
  return page === 1 ? INDEX_FILE : `page=${page}.json`;
}

/** The file of a record inside its folder, by format: `index.json` without one. */
export function recordFileName(format: Format): string {
  return format === '' ? INDEX_FILE : `format=${format}.json`;
}

/** A filter in use: its parameter and its value in canonical form. */
export interface ListFilter {
  name: string;
  value: string;
}

/** The folder of one list (a filter's value or none, one format and ordering) under `api/v1/clients/`. */
export function listFolder(listPath: string, filter: ListFilter | undefined, format: Format, ordering: Ordering): string {
  const filterFolder = filter === undefined ? '' : parameterFolder(filter.name, filter.value);
  return `${listPath.slice(1)}${filterFolder}${parameterFolder('format', format)}${parameterFolder('ordering', ordering)}`;
}

export function listPageFile(listPath: string, filter: ListFilter | undefined, format: Format, ordering: Ordering, page: number): string {
  return `${listFolder(listPath, filter, format, ordering)}${pageFileName(page)}`;
}

/** `recordPath` is the route's path with `{id}`: `/api/v1/clients/{id}/`. */
export function recordFile(recordPath: string, id: number | string, format: Format): string {
  return `${recordFolder(recordPath, id)}${recordFileName(format)}`;
}

/** The folder of one record's files (one per format): `api/v1/clients/44400/`. */
export function recordFolder(recordPath: string, id: number | string): string {
  return recordPath.slice(1).replace('{id}', String(id));
}

/** `clients` or `registrants` for the file of a record, else undefined. */
export function recordKind(file: string): string | undefined {
  return /^api\/v1\/(clients|registrants)\/[0-9]+\//.exec(file)?.[1];
}
