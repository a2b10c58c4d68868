import { CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import type { StoredClient } from '../store/record-store.ts';

/**
 * Bytes of the bodies (contract sections 1, 2 and 4). `base` is the base URL and `suffix` the query
 * string every `url` ends with (`''` or `?format=api`), both already safe inside a JSON string.
 */
export function clientBody(base: string, suffix: string, client: Omit<StoredClient, 'ascii'>): string {
  return (
    `{"id":${client.id},"url":"${base}${CLIENT_PATH_PREFIX}${client.id}/${suffix}",${client.fields},` +
    `"registrant":${registrantBody(base, suffix, client.registrantId, client.registrantFields)}}`
  );
}

export function registrantBody(base: string, suffix: string, id: number, fields: string): string {
  return `{"id":${id},"url":"${base}${REGISTRANT_PATH_PREFIX}${id}/${suffix}",${fields}}`;
}

/**
 * A page of the list in its parts: everything before the first result (`head`), and the results, each
 * a client's body. The page is `head`, the results joined by commas, then `]}`; the build's check
 * verifies the parts (each client's body once) instead of parsing every page whole.
 */
export interface PageParts {
  head: string;
  results: readonly string[];
  /**
   * Which client each result is, and in which of the build's formats (its index): given by the renderer,
   * which made each result from that client's store row, so that the check can know a result it
   * verified before by its id and length without reading its text.
   */
  of?: { ids: readonly number[]; format: number };
}

/** `next` and `previous` are JSON text (a quoted URL or `null`). */
export function pageParts(count: number, next: string, previous: string, results: readonly string[], of?: PageParts['of']): PageParts {
  return { head: `{"count":${count},"next":${next},"previous":${previous},"results":[`, results, of };
}

export function assemblePage(parts: PageParts): string {
  return `${parts.head}${parts.results.join(',')}]}`;
}

/** A page of the list; `next` and `previous` are JSON text (a quoted URL or `null`). */
export function pageBody(count: number, next: string, previous: string, results: readonly string[]): string {
  return assemblePage(pageParts(count, next, previous, results));
}

/** What follows the id in a record's `url` in a format (`clientBody`, `registrantBody`): `/`, `/?format=api`. */
export function recordLinkSuffix(format: string): string {
  return `/${formatSuffix(format)}`;
}

/** The `url` suffix for a format: no query string without one. */
export function formatSuffix(format: string): string {
  return format === '' ? '' : `?format=${format}`;
}
