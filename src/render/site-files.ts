import { CLIENT_PATH_PREFIX, LIST_PATH, ORDERINGS, PAGE_SIZE, REGISTRANT_PATH_PREFIX, type FilterName, type Format, type Ordering } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import { lastPageFor } from '../plan/page-count.ts';
import { MAP_FILE, errorAnswers, filtersStep, listRoute, recordRoutes, type RewriteMap, type ServedFilter } from '../plan/rewrite-map.ts';
import { listFolder, listPageFile, recordFile, recordFolder, type ListFilter } from '../plan/site-layout.ts';
import type { RecordStore, StoredClient } from '../store/record-store.ts';
import { clientBody, formatSuffix, pageHead, registrantBody, type ListPage } from './bodies.ts';
import { pageLinkJson } from './links.ts';

/**
 * One file of the output: its path relative to the output folder, and its text, or for a page of a
 * list its head and clients (`ListPage`), which the render thread writes and verifies piece by piece
 * without making the page's text (`listPageParts` makes it).
 */
export type SiteFile =
  | { path: string; body: string; page?: undefined; ascii?: boolean }
  | { path: string; body?: undefined; page: ListPage; ascii?: boolean };
// `ascii`: true when the text is ASCII only, known from the store; its UTF-8 bytes are then its Latin-1 bytes, a copy.

/**
 * A share of the site that one render thread renders and writes on its own: the threads take units
 * one at a time until none is left, so both cores stay busy to the end. A list's pages never span two
 * units, so each thread can verify whole lists.
 */
export type SiteUnit =
  /** The record files of the clients whose id is from `from` (inclusive) to `to` (exclusive); null: no bound. */
  | { kind: 'clients'; from: number | null; to: number | null }
  /** The unfiltered list in one ordering and, from the same pass over the clients, the lists of every value of `filters`. */
  | { kind: 'list'; ordering: Ordering; filters?: readonly string[] }
  | { kind: 'filtered'; filter: string; ordering: Ordering }
  | { kind: 'registrants' }
  | { kind: 'fixed' };

/**
 * Every unit of the site, the longest first (the lists, the filters' lists, the registrants, then the
 * clients' record files in ranges of ids cut at `clientBounds`), so that the last ones to start are
 * short and both threads end together: the clients' record files are nearly half the files, too many
 * for one unit.
 *
 * A filter with a choice list (states, countries: a few hundred values at most) has its lists cut
 * from the unfiltered list's pass in each ordering: each of its values has one page under way at a
 * time, so memory holds a few hundred pages' clients, and the store is read half as often. A filter
 * by number (`registrant_id`: tens of thousands of values) has units of its own, value after value.
 */
export function siteUnits(map: RewriteMap, clientBounds: readonly number[] = []): SiteUnit[] {
  const served = filtersStep(listRoute(map))?.served ?? [];
  const alongside = served.filter((filter) => filter.values === 'choice').map((filter) => filter.param);
  const units: SiteUnit[] = ORDERINGS.map((ordering) => ({ kind: 'list', ordering, filters: alongside }));
  for (const filter of served) {
    if (filter.values === 'choice') continue;
    for (const ordering of ORDERINGS) units.push({ kind: 'filtered', filter: filter.param, ordering });
  }
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
 * - `list`: one pass over the store in an ordering cuts pages of 25 and renders them in every format,
 *   for the unfiltered list and for the value each client has of every filter in `filters`;
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
      const fanOut = (unit.filters ?? []).map((param) => new ValueLists(render, store, servedFilter(map, param), unit.ordering));
      for (const client of store.clientsInOrder(unit.ordering, fanOut.map((lists) => lists.filter))) {
        if (pages.add(client)) yield* pages.emit();
        for (let i = 0; i < fanOut.length; i++) {
          const value = client.values[i];
          const lists = value === null || value === undefined ? undefined : fanOut[i]!.of(String(value));
          if (lists?.add(client)) yield* lists.emit();
        }
      }
      yield* pages.end();
      for (const lists of fanOut) yield* lists.end();
      return;
    }
    case 'filtered': {
      const filter = servedFilter(map, unit.filter);
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

/**
 * The folders that a unit's files go in, known before any is rendered: a list's folder per format
 * (and per value of its filters), a record's folder per record. The render thread makes them all
 * before it writes the unit's files, as the floor does for the whole tree: on ext4, folders made
 * between files cost the kernel a fifth more than the same folders made first (issue 13). The
 * fixed unit's few folders are made as its files need them.
 */
export function* unitFolders(store: RecordStore, map: RewriteMap, formats: readonly Format[], unit: SiteUnit): Generator<string> {
  switch (unit.kind) {
    case 'list':
      for (const format of formats) yield listFolder(LIST_PATH, undefined, format, unit.ordering);
      for (const param of unit.filters ?? []) yield* valueFolders(store, servedFilter(map, param), formats, unit.ordering);
      return;
    case 'filtered':
      yield* valueFolders(store, servedFilter(map, unit.filter), formats, unit.ordering);
      return;
    case 'clients':
      for (const id of store.clientIdsInRange(unit.from, unit.to)) yield recordFolder(`${CLIENT_PATH_PREFIX}{id}/`, id);
      return;
    case 'registrants':
      for (const id of store.registrantIds()) yield recordFolder(`${REGISTRANT_PATH_PREFIX}{id}/`, id);
      return;
    case 'fixed':
      return;
  }
}

/** The folders of every value's lists of a filter in one ordering: the values that have lists (`valueCounts`), each in every format. */
function* valueFolders(store: RecordStore, filter: ServedFilter, formats: readonly Format[], ordering: Ordering): Generator<string> {
  for (const value of valueCounts(store, filter.param as FilterName, filter.choices).keys()) {
    for (const format of formats) yield listFolder(LIST_PATH, { name: filter.param, value }, format, ordering);
  }
}

/** The lists of every value of one filter in one ordering: the clients come by value, then in order. */
function* filteredLists(render: RenderContext, store: RecordStore, filter: ServedFilter, counts: Map<string, number>, ordering: Ordering): Generator<SiteFile> {
  let pages: ListPages | undefined;
  for (const client of store.clientsByFilter(filter.param as FilterName, ordering)) {
    const value = String(client.values[0]);
    if (pages?.filter?.value !== value) {
      if (pages !== undefined) yield* pages.end();
      const count = counts.get(value);
      // A code the filter's choice list lacks cannot be asked for: no lists.
      pages = count === undefined ? undefined : new ListPages(render, { name: filter.param, value }, ordering, count);
      if (pages === undefined) continue;
    }
    if (pages.add(client)) yield* pages.emit();
  }
  if (pages !== undefined) yield* pages.end();
}

function servedFilter(map: RewriteMap, param: string): ServedFilter {
  const filter = (filtersStep(listRoute(map))?.served ?? []).find((served) => served.param === param);
  if (filter === undefined) throw new Error(`the map serves no filter ${param}`);
  return filter;
}

/**
 * The lists of every value of one filter, cut in the same pass as the unfiltered list: the page under
 * way of each value that has met a client so far. A value the filter's choice list lacks has none.
 */
class ValueLists {
  readonly filter: FilterName;
  private readonly counts: Map<string, number>;
  private readonly lists = new Map<string, ListPages>();

  constructor(
    private readonly render: RenderContext,
    store: RecordStore,
    private readonly served: ServedFilter,
    private readonly ordering: Ordering,
  ) {
    this.filter = served.param as FilterName;
    this.counts = valueCounts(store, this.filter, served.choices);
  }

  /** The lists of a value (canonical form); undefined when it has none. */
  of(value: string): ListPages | undefined {
    let lists = this.lists.get(value);
    if (lists === undefined) {
      const count = this.counts.get(value);
      if (count === undefined) return undefined;
      this.lists.set(value, (lists = new ListPages(this.render, { name: this.served.param, value }, this.ordering, count)));
    }
    return lists;
  }

  /** Every value's last, partial page. */
  *end(): Generator<SiteFile> {
    for (const lists of this.lists.values()) yield* lists.end();
  }
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
  /**
   * This page's clients, rendered when the page is full: a list cut beside others in one pass (a
   * state's, a country's) may wait long for its 25th client, and holds one row per client meanwhile
   * rather than a body per format.
   */
  private clients: StoredClient[] = [];

  constructor(
    private readonly render: RenderContext,
    readonly filter: ListFilter | undefined,
    private readonly ordering: Ordering,
    private readonly count: number,
  ) {
    this.last = lastPageFor(count);
  }

  /** Adds a client. True when that fills the page: the caller then takes its files from `emit` (no generator per client: there are millions). */
  add(client: StoredClient): boolean {
    this.clients.push(client);
    return this.clients.length === PAGE_SIZE;
  }

  /** The last, partial page; or the single empty page of an empty data set. */
  *end(): Generator<SiteFile> {
    if (this.clients.length > 0 || this.page === 1) yield* this.emit();
  }

  /** The files of the page under way, in every format, each client in the same bytes as its record file; the next client starts the next page. */
  *emit(): Generator<SiteFile> {
    const { map, formats, base, suffixes, asciiBase } = this.render;
    const { clients } = this;
    const ascii = asciiBase && clients.every((client) => client.ascii === 1);
    for (const [i, format] of formats.entries()) {
      const next = pageLinkJson(map.baseUrl, this.filter, format, this.ordering, this.page + 1, this.last);
      const previous = pageLinkJson(map.baseUrl, this.filter, format, this.ordering, this.page - 1, this.last);
      const page: ListPage = { head: pageHead(this.count, next, previous), clients, format: i, base, suffix: suffixes[i]! };
      yield { path: listPageFile(LIST_PATH, this.filter, format, this.ordering, this.page), page, ascii };
    }
    this.page++;
    this.clients = [];
  }
}

/** How many files `siteFiles` yields, known before one is rendered: for a progress bar. `filteredPages`: pages of every filtered list, in one format and ordering. */
export function siteFileCount(map: RewriteMap, formats: readonly Format[], filteredPages: number): number {
  const records = recordRoutes(map).reduce((sum, route) => sum + route.count, 0);
  return ((listRoute(map).page.last + filteredPages) * ORDERINGS.length + records) * formats.length + errorAnswers(map).length + 1;
}
