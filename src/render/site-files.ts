import { CLIENT_PATH_PREFIX, LIST_PATH, ORDERINGS, PAGE_SIZE, REGISTRANT_PATH_PREFIX, type FilterName, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import { lastPageFor } from '../plan/page-count.ts';
import { MAP_FILE, errorAnswers, filtersStep, listRoute, recordRoutes, type RewriteMap, type ServedFilter } from '../plan/rewrite-map.ts';
import { listPageFile, recordFile, type ListFilter } from '../plan/site-layout.ts';
import type { RecordStore, StoredClient } from '../store/record-store.ts';
import { clientBody, formatSuffix, pageBody, registrantBody } from './bodies.ts';
import { pageLinkJson } from './links.ts';

/** One file of the output: its path relative to the output folder, and its text. */
export interface SiteFile {
  path: string;
  body: string;
}

/**
 * Every file of the site, produced lazily so that memory holds one page at a time:
 * - the unfiltered lists: for each ordering, one pass over the store in that order cuts pages of 25
 *   and renders them in every format; the pass in id order also yields each client's record files,
 *   the same bytes as inside the pages;
 * - the filtered lists: for each filter built and each ordering, one pass over the clients that have a
 *   value, by value and then in that order, cuts each value's pages;
 * - the registrants, the fixed answers and the map.
 */
export function* siteFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[]): Generator<SiteFile> {
  const render: RenderContext = { map, formats, base: jsonStringContent(map.baseUrl), suffixes: formats.map(formatSuffix) };
  const list = listRoute(map);

  for (const ordering of ORDERINGS) {
    const pages = new ListPages(render, undefined, ordering, list.count);
    for (const client of store.clientsInOrder(ordering)) {
      const bodies = pages.bodiesOf(client);
      if (ordering === '') {
        for (const [i, format] of formats.entries()) yield { path: recordFile(`${CLIENT_PATH_PREFIX}{id}/`, client.id, format), body: bodies[i]! };
      }
      yield* pages.add(bodies);
    }
    yield* pages.end();
  }

  for (const filter of filtersStep(list)?.served ?? []) {
    const counts = valueCounts(store, filter.param as FilterName, filter.choices);
    for (const ordering of ORDERINGS) yield* filteredLists(render, store, filter, counts, ordering);
  }

  for (const registrant of store.registrants()) {
    for (const [i, format] of formats.entries()) {
      const body = registrantBody(render.base, render.suffixes[i]!, registrant.id, registrant.fields);
      yield { path: recordFile(`${REGISTRANT_PATH_PREFIX}{id}/`, registrant.id, format), body };
    }
  }

  for (const answer of errorAnswers(map)) yield { path: answer.file, body: answer.body };
  yield { path: MAP_FILE, body: `${JSON.stringify(map, null, 2)}\n` };
}

/** The lists of every value of one filter in one ordering: the clients come by value, then in order. */
function* filteredLists(render: RenderContext, store: RecordStore, filter: ServedFilter, counts: Map<string, number>, ordering: Ordering): Generator<SiteFile> {
  let pages: ListPages | undefined;
  for (const client of store.clientsByFilter(filter.param as FilterName, ordering)) {
    const value = String(client.value);
    if (pages?.filter?.value !== value) {
      if (pages !== undefined) yield* pages.end();
      const count = counts.get(value);
      // A code the filter's choice list lacks cannot be asked for: no lists.
      pages = count === undefined ? undefined : new ListPages(render, { name: filter.param, value }, ordering, count);
      if (pages === undefined) continue;
    }
    yield* pages.add(pages.bodiesOf(client));
  }
  if (pages !== undefined) yield* pages.end();
}

/**
 * Clients per value of a filter (canonical form), for the values it accepts: a code that clients have
 * but the filter's choice list lacks cannot be asked for (contract section 8), so it has no lists.
 */
export function valueCounts(store: RecordStore, filter: FilterName, choices: readonly string[] | undefined): Map<string, number> {
  const accepted = choices === undefined ? undefined : new Set(choices);
  const counts = new Map<string, number>();
  for (const { value, count } of store.filterValueCounts(filter)) {
    const canonical = String(value);
    if (accepted === undefined || accepted.has(canonical)) counts.set(canonical, count);
  }
  return counts;
}

interface RenderContext {
  map: RewriteMap;
  formats: readonly Format[];
  /** The base URL, already safe inside a JSON string. */
  base: string;
  /** Per format, what every `url` ends with. */
  suffixes: string[];
}

/** Cuts one list (a filter's value or none, one ordering) into pages of 25, in every format. */
class ListPages {
  private page = 1;
  private readonly last: number;
  /** Per format, the bodies of this page's clients. */
  private batch: string[][];

  constructor(
    private readonly render: RenderContext,
    readonly filter: ListFilter | undefined,
    private readonly ordering: Ordering,
    private readonly count: number,
  ) {
    this.last = lastPageFor(count);
    this.batch = render.formats.map(() => []);
  }

  /** A client's body in every format, as it appears in a page and in its record file. */
  bodiesOf(client: StoredClient): string[] {
    return this.render.suffixes.map((suffix) => clientBody(this.render.base, suffix, client));
  }

  *add(bodies: string[]): Generator<SiteFile> {
    bodies.forEach((body, i) => this.batch[i]!.push(body));
    if (this.batch[0]!.length === PAGE_SIZE) yield* this.emit();
  }

  /** The last, partial page; or the single empty page of an empty data set. */
  *end(): Generator<SiteFile> {
    if (this.batch[0]!.length > 0 || this.page === 1) yield* this.emit();
  }

  private *emit(): Generator<SiteFile> {
    const { map, formats } = this.render;
    for (const [i, format] of formats.entries()) {
      const next = pageLinkJson(map.baseUrl, this.filter, format, this.ordering, this.page + 1, this.last);
      const previous = pageLinkJson(map.baseUrl, this.filter, format, this.ordering, this.page - 1, this.last);
      yield { path: listPageFile(LIST_PATH, this.filter, format, this.ordering, this.page), body: pageBody(this.count, next, previous, this.batch[i]!) };
    }
    this.page++;
    this.batch = formats.map(() => []);
  }
}

/** How many files `siteFiles` yields, known before one is rendered: for a progress bar. `filteredPages`: pages of every filtered list, in one format and ordering. */
export function siteFileCount(map: RewriteMap, formats: readonly Format[], filteredPages: number): number {
  const records = recordRoutes(map).reduce((sum, route) => sum + route.count, 0);
  return ((listRoute(map).page.last + filteredPages) * ORDERINGS.length + records) * formats.length + errorAnswers(map).length + 1;
}
