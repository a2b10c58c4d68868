import { LIST_PATH, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import type { ListFilter } from '../plan/site-layout.ts';
import { pageQuery } from './query-string.ts';

/**
 * A link of the list (contract sections 2 and 8): the filter in use (its value in canonical form), the
 * request's `format` and `ordering`, and `page`, keys in sorted order; no `page` for page 1, and no `?`
 * at all when nothing is left. Written as Django REST Framework writes it (`pageLink`), so a page the
 * build writes and the same page composed where code runs have the same links.
 */
export function listUrl(base: string, filter: ListFilter | undefined, format: Format, ordering: Ordering, page: number): string {
  return pageLink(base, canonicalPairs(filter, format, ordering), page);
}

/** The parameters a precomputed list is named by: its filter's canonical value, its format and ordering. */
function canonicalPairs(filter: ListFilter | undefined, format: Format, ordering: Ordering): [string, string][] {
  const pairs: [string, string][] = [];
  if (filter !== undefined) pairs.push([filter.name, filter.value]);
  if (format !== '') pairs.push(['format', format]);
  if (ordering !== '') pairs.push(['ordering', ordering]);
  return pairs;
}

/** `{base}{path}` (the clients list by default) and the request's parameters, `page` set to `page` (removed for page 1), as DRF writes it. */
export function pageLink(base: string, pairs: readonly (readonly [string, string])[], page: number, path: string = LIST_PATH): string {
  const query = pageQuery(pairs, 'page', page);
  return `${base}${path}${query === '' ? '' : `?${query}`}`;
}

/** `next` / `previous` as JSON text: the quoted link, or `null` past either end. */
export function pageLinkJson(
  base: string,
  filter: ListFilter | undefined,
  format: Format,
  ordering: Ordering,
  page: number,
  lastPage: number,
): string {
  return linkJson(base, canonicalPairs(filter, format, ordering), page, lastPage);
}

/** A page's `next` or `previous` as JSON text, from the request's parameters: the quoted link, or `null` past either end. */
export function linkJson(base: string, pairs: readonly (readonly [string, string])[], page: number, lastPage: number, path: string = LIST_PATH): string {
  if (page < 1 || page > lastPage) return 'null';
  return `"${jsonStringContent(pageLink(base, pairs, page, path))}"`;
}
