import { CLIENT_PATH_PREFIX, LIST_PATH, ORDERINGS, PAGE_SIZE, REGISTRANT_PATH_PREFIX, type FilterName, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import { lastPageFor } from '../plan/page-count.ts';
import { MAP_FILE, errorAnswers, filtersStep, listRoute, recordRoutes, type RewriteMap, type ServedFilter } from '../plan/rewrite-map.ts';
import { listPageFile, recordFile, type ListFilter } from '../plan/site-layout.ts';
import type { RecordStore, StoredClient } from '../store/record-store.ts';
import { clientBody, formatSuffix, pageParts, registrantBody, type PageParts } from './bodies.ts';
import { pageLinkJson } from './links.ts';

/**
 * One file of the output: its path relative to the output folder, and its text, or for a page of a
 * list the parts its text is made of (`assemblePage`), which the render thread writes and verifies
 * piece by piece without making the page's text.
 */
export type SiteFile =
  | { path: string; body: string; page?: undefined; ascii?: boolean }
  | { path: string; body?: undefined; page: PageParts; ascii?: boolean };
// `ascii`: true when the text is ASCII only, known from the store; its UTF-8 bytes are then its Latin-1 bytes, a copy.

/**
 * A share of the site that one render thread renders and writes on its own: the threads take units
 * one at a time until none is left, so both cores stay busy to the end. A list's pages never span two
 * units, so each thread can verify whole lists.
 */
export type SiteUnit =
  /** The record files of the clients whose id is from `from` (inclusive) to `to` (exclusive); null: no bound. */
  | { kind: 'clients'; from: number | null; to: number | null }
  | { kind: 'list'; ordering: Ordering }
  | { kind: 'filtered'; filter: string; ordering: Ordering }
  | { kind: 'registrants' }
  | { kind: 'fixed' };

/**
 * Every unit of the site, the longest first (the lists, the registrants, then the clients' record files
 * in ranges of ids cut at `clientBounds`), so that the last ones to start are short and both threads
 * end together: the clients' record files are nearly half the files, too many for one unit.
 */
export function siteUnits(map: RewriteMap, clientBounds: readonly number[] = []): SiteUnit[] {
  const units: SiteUnit[] = [];
  for (const filter of filtersStep(listRoute(map))?.served ?? []) {
    for (const ordering of ORDERINGS) units.push({ kind: 'filtered', filter: filter.param, ordering });
  }
  for (const ordering of ORDERINGS) units.push({ kind: 'list', ordering });
  units.push({ kind: 'registrants' });
  const bounds = [null, ...clientBounds, null];
  for (let i = 1; i < bounds.length; i++) units.push({ kind: 'clients', from: bounds[i - 1]!, to: bounds[i]! });
  units.push({ kind: 'fixed' });
  return units;
}

/** Every file of the site, unit after unit: what the render threads produce between them. */
export function* siteFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[]): Generator<SiteFile> {
  for (const unit of siteUnits(map)) yield* unitFiles(store, map, formats, unit);
}

/**
 * The files of one unit, produced lazily so that memory holds one page at a time:
 * - `list`: one pass over the store in an ordering cuts pages of 25 and renders them in every format;
 * - `filtered`: one pass over the clients that have a value of the filter, by value and then in the
 *   ordering, cuts each value's pages;
 * - `clients`, `registrants`: the record files, the same bytes as inside the pages;
 * - `fixed`: the error answers and the map.
 */
export function* unitFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[], unit: SiteUnit): Generator<SiteFile> {
  const base = jsonStringContent(map.baseUrl);
  // Page links add only percent-encoded queries to the base URL: ASCII when it is.
  const render: RenderContext = { map, formats, base, asciiBase: /^[\x00-\x7f]*$/.test(base), suffixes: formats.map(formatSuffix) };
  switch (unit.kind) {
    case 'list': {
      const pages = new ListPages(render, undefined, unit.ordering, listRoute(map).count);
      for (const client of store.clientsInOrder(unit.ordering)) yield* pages.add(client);
      yield* pages.end();
      return;
    }
    case 'filtered': {
      const filter = (filtersStep(listRoute(map))?.served ?? []).find((served) => served.param === unit.filter);
      if (filter === undefined) throw new Error(`the map serves no filter ${unit.filter}`);
      yield* filteredLists(render, store, filter, valueCounts(store, filter.param as FilterName, filter.choices), unit.ordering);
      return;
    }
    case 'clients':
      for (const client of store.clientsInIdRange(unit.from, unit.to)) {
        for (const [i, format] of formats.entries()) {
          const body = clientBody(render.base, render.suffixes[i]!, client);
          yield { path: recordFile(`${CLIENT_PATH_PREFIX}{id}/`, client.id, format), body, ascii: render.asciiBase && client.ascii === 1 };
        }
      }
      return;
    case 'registrants':
      for (const registrant of store.registrants()) {
        for (const [i, format] of formats.entries()) {
          const body = registrantBody(render.base, render.suffixes[i]!, registrant.id, registrant.fields);
          yield { path: recordFile(`${REGISTRANT_PATH_PREFIX}{id}/`, registrant.id, format), body, ascii: render.asciiBase && registrant.ascii === 1 };
        }
      }
      return;
    case 'fixed':
      for (const answer of errorAnswers(map)) yield { path: answer.file, body: answer.body };
      yield { path: MAP_FILE, body: `${JSON.stringify(map, null, 2)}\n` };
  }
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
    yield* pages.add(client);
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
  asciiBase: boolean;
  /** Per format, what every `url` ends with. */
  suffixes: string[];
}

/** Cuts one list (a filter's value or none, one ordering) into pages of 25, in every format. */
class ListPages {
  private page = 1;
  private readonly last: number;
  /** Per format, the bodies of this page's clients. */
  private batch: string[][];
  /** Whether every client of this page is ASCII only. */
  private ascii = true;

  constructor(
    private readonly render: RenderContext,
    readonly filter: ListFilter | undefined,
    private readonly ordering: Ordering,
    private readonly count: number,
  ) {
    this.last = lastPageFor(count);
    this.batch = render.formats.map(() => []);
  }

  /** Adds a client, in every format the same bytes as its record file. */
  *add(client: StoredClient): Generator<SiteFile> {
    const { base, suffixes } = this.render;
    for (let i = 0; i < suffixes.length; i++) this.batch[i]!.push(clientBody(base, suffixes[i]!, client));
    this.ascii &&= client.ascii === 1;
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
      const page = pageParts(this.count, next, previous, this.batch[i]!);
      yield { path: listPageFile(LIST_PATH, this.filter, format, this.ordering, this.page), page, ascii: this.render.asciiBase && this.ascii };
    }
    this.page++;
    this.batch = formats.map(() => []);
    this.ascii = true;
  }
}

/** How many files `siteFiles` yields, known before one is rendered: for a progress bar. `filteredPages`: pages of every filtered list, in one format and ordering. */
export function siteFileCount(map: RewriteMap, formats: readonly Format[], filteredPages: number): number {
  const records = recordRoutes(map).reduce((sum, route) => sum + route.count, 0);
  return ((listRoute(map).page.last + filteredPages) * ORDERINGS.length + records) * formats.length + errorAnswers(map).length + 1;
}
