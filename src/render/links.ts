import { LIST_PATH, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import type { ListFilter } from '../plan/site-layout.ts';

/**
 * A link of the list (contract sections 2 and 8): the filter in use (its value in canonical form), the
 * request's `format` and `ordering`, and `page`, keys in sorted order; no `page` for page 1, and no `?`
 * at all when nothing is left.
 */
export function listUrl(base: string, filter: ListFilter | undefined, format: Format, ordering: Ordering, page: number): string {
  const query: [string, string][] = [];
  if (filter !== undefined) query.push([filter.name, filter.value]);
  if (format !== '') query.push(['format', format]);
  if (ordering !== '') query.push(['ordering', ordering]);
  if (page > 1) query.push(['page', String(page)]);
  query.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `${base}${LIST_PATH}${text === '' ? '' : `?${text}`}`;
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
  if (page < 1 || page > lastPage) return 'null';
  return `"${jsonStringContent(listUrl(base, filter, format, ordering, page))}"`;
}
