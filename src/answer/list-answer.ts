import { LIST_PATH, PAGE_SIZE } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import type { QueryBundle } from '../bundle/query-bundle.ts';
import { assemblePage, clientBody, formatSuffix, pageHead } from '../render/bodies.ts';
import { linkJson } from '../render/links.ts';
import { pythonInt } from '../routing/python-text.ts';

/** A list's records in the order asked: how many, and those at places `from` to `to` (exclusive), read as needed through `bundle`, the view of the answer asking. */
export interface PagedRecords {
  readonly count: number;
  slice(from: number, to: number, bundle: QueryBundle): number[] | Promise<number[]>;
}

/**
 * A page of a list (clients or registrants: `list` gives its path and how a record's body is made) as Django REST Framework's PageNumberPagination answers it (contract section 9):
 * `page_size` read as Python's `int()` (above 25, or not a positive integer: 25), `page` absent for 1, `last` for the last, else Python's `int()` from 1 to the last page; the links made
 * again from every parameter of the request (render/query-string.ts). The body is made by the
 * build's own renderer (render/bodies.ts), so a page the build also wrote is the same bytes.
 *
 * The page's body, or undefined for a page that does not exist (404 `Invalid page.`).
 */
export async function listPage(
  bundle: QueryBundle,
  clients: PagedRecords,
  pairs: readonly (readonly [string, string])[],
  values: ReadonlyMap<string, string>,
  list: { path: string; text: (bundle: QueryBundle, index: number, base: string, suffix: string) => Promise<string> } = { path: LIST_PATH, text: clientText },
): Promise<string | undefined> {
  const size = pageSize(values.get('page_size'));
  const last = Math.max(1, Math.ceil(clients.count / size));
  const page = pageNumber(values.get('page'), last);
  if (page === undefined) return undefined;
  const { baseUrl } = bundle.manifest;
  const base = jsonStringContent(baseUrl);
  const suffix = jsonStringContent(formatSuffix(values.get('format') ?? ''));
  // Read in parallel: at the edge each chunk a page needs is a request of its own.
  const results = await Promise.all((await clients.slice((page - 1) * size, page * size, bundle)).map((index) => list.text(bundle, index, base, suffix)));
  return assemblePage({ head: pageHead(clients.count, linkJson(baseUrl, pairs, page + 1, last, list.path), linkJson(baseUrl, pairs, page - 1, last, list.path)), results });
}

/** DRF's `get_page_size` with `max_page_size` 25: a positive integer, at most 25; anything else 25. */
function pageSize(value: string | undefined): number {
  const size = value === undefined ? undefined : pythonInt(value);
  return size === undefined || size < 1 ? PAGE_SIZE : Math.min(size, PAGE_SIZE);
}

/**
 * The page asked for, if it exists: absent is 1, `last` the last, else Python's `int()`. An empty
 * `page` is not a number to DRF 3.14 (`query_params.get('page', 1)` gives '') and so a 404, as the
 * exact-3k set has it (case 429), although section 9 of the contract says it is page 1.
 */
function pageNumber(value: string | undefined, last: number): number | undefined {
  if (value === undefined) return 1;
  if (value === 'last') return last;
  const page = pythonInt(value);
  return page !== undefined && page >= 1 && page <= last ? page : undefined;
}

/** The body of the client at a global index (contract section 4), as inside a page and in its record file. */
export async function clientText(bundle: QueryBundle, index: number, base: string, suffix: string): Promise<string> {
  const { chunk, at } = await bundle.clientAt(index);
  const registrantId = chunk.registrants![at]!;
  // The registrant's text is in the client's chunk: a page reads its clients' chunks and nothing else.
  const registrant = chunk.embedded?.find(registrantId) ?? -1;
  if (registrant < 0) throw new Error(`the query bundle has no registrant ${registrantId} beside client ${chunk.ids[at]}`);
  return clientBody(base, suffix, { id: chunk.ids[at]!, fields: chunk.text(at), registrantId, registrantFields: chunk.embedded!.text(registrant) });
}
