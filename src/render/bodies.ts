import { CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX, type ClientText } from '../contract.ts';

/**
 * Bytes of the bodies (contract sections 1, 2 and 4). `base` is the base URL and `suffix` the query
 * string every `url` ends with (`''` or `?format=api`), both already safe inside a JSON string.
 *
 * A client's body is made of four pieces: its opening (`{"id":…,"url":"…",`), its fields, its
 * registrant's opening (`,"registrant":{"id":…,"url":"…",`) and fields, then `}}`. `clientBody` joins
 * them into a text; the render threads write them one after another into a page's bytes
 * (`BodyBytes.listPage`), so that no text is made per result: both from these same pieces.
 */
export function clientBody(base: string, suffix: string, client: BodyClient): string {
  return `${clientOpening(base, suffix, client.id)}${client.fields}${registrantOpening(base, suffix, client.registrantId)}${client.registrantFields}}}`;
}

/** What a client's body is made of. */
export type BodyClient = ClientText;

/** A client's body up to its fields. */
export function clientOpening(base: string, suffix: string, id: number): string {
  return recordOpening(base, CLIENT_PATH_PREFIX, suffix, id);
}

/** What follows a client's fields, up to its registrant's fields. */
export function registrantOpening(base: string, suffix: string, registrantId: number): string {
  return `,"registrant":${recordOpening(base, REGISTRANT_PATH_PREFIX, suffix, registrantId)}`;
}

export function registrantBody(base: string, suffix: string, id: number, fields: string): string {
  return `${recordOpening(base, REGISTRANT_PATH_PREFIX, suffix, id)}${fields}}`;
}

/** A record's body up to its fields: its id and its `url`. */
function recordOpening(base: string, pathPrefix: string, suffix: string, id: number): string {
  return `{"id":${id},"url":"${base}${pathPrefix}${id}/${suffix}",`;
}

/**
 * A page of the list in its parts: everything before the first result (`head`), and the results, each
 * a client's body. The page is `head`, the results joined by commas, then `]}`; the build's check
 * verifies the parts (each client's body once) instead of parsing every page whole.
 */
export interface PageParts {
  head: string;
  results: readonly string[];
}

/**
 * A page of the list as the renderer hands it to a render thread: its head, and the clients whose
 * bodies, in the format `suffix` goes with (`format`: its index among the build's formats), are its
 * results. The thread writes the results' pieces straight into the page's bytes (`BodyBytes.listPage`).
 */
export interface ListPage {
  head: string;
  clients: readonly BodyClient[];
  format: number;
  base: string;
  suffix: string;
}

/** A list page's parts as text: the same bytes as `BodyBytes.listPage` writes. */
export function listPageParts(page: ListPage): PageParts {
  return { head: page.head, results: page.clients.map((client) => clientBody(page.base, page.suffix, client)) };
}

/** The text before a page's first result; `next` and `previous` are JSON text (a quoted URL or `null`). */
export function pageHead(count: number, next: string, previous: string): string {
  return `{"count":${count},"next":${next},"previous":${previous},"results":[`;
}

export function assemblePage(parts: PageParts): string {
  return `${parts.head}${parts.results.join(',')}]}`;
}

/** What follows the id in a record's `url` in a format (`clientBody`, `registrantBody`): `/`, `/?format=api`. */
export function recordLinkSuffix(format: string): string {
  return `/${formatSuffix(format)}`;
}

/** The `url` suffix for a format: no query string without one. */
export function formatSuffix(format: string): string {
  return format === '' ? '' : `?format=${format}`;
}
