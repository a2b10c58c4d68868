import { LIST_PATH, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';

/**
 * A link of the list (contract section 2): the request's `format` and `ordering` plus `page`, keys in
 * sorted order, no `page` for page 1, and no `?` at all when nothing is left.
 */
export function listUrl(base: string, format: Format, ordering: Ordering, page: number): string {
  const query: string[] = [];
  if (format !== '') query.push(`format=${encodeURIComponent(format)}`);
  if (ordering !== '') query.push(`ordering=${encodeURIComponent(ordering)}`);
  if (page > 1) query.push(`page=${page}`);
  return `${base}${LIST_PATH}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** `next` / `previous` as JSON text: the quoted link, or `null` past either end. */
export function pageLinkJson(
  base: string,
  format: Format,
  ordering: Ordering,
  page: number,
  lastPage: number,
): string {
  if (page < 1 || page > lastPage) return 'null';
  return `"${jsonStringContent(listUrl(base, format, ordering, page))}"`;
}
