import { LIST_PATH, PAGE_SIZE, type FilterName, type Format, type Ordering } from '../contract.ts';
import { valueCounts } from '../plan/filter-plans.ts';
import { lastPageFor } from '../plan/page-count.ts';
import type { RewriteMap, ServedFilter } from '../plan/rewrite-map.ts';
import { listPageFile, type ListFilter } from '../plan/site-layout.ts';
import type { RecordStore, StoredClient } from '../store/record-store.ts';
import { pageHead, type ListPage } from './bodies.ts';
import { pageLinkJson } from './links.ts';

/** What every file of a render is made with, worked out once. */
export interface RenderContext {
  map: RewriteMap;
  formats: readonly Format[];
  /** The base URL, already safe inside a JSON string. */
  base: string;
  asciiBase: boolean;
  /** Per format, what every `url` ends with. */
  suffixes: string[];
}

/** A page of a list as a file of the output (a `SiteFile`): its head and clients, not yet its text. */
export interface ListPageFile {
  path: string;
  page: ListPage;
  ascii: boolean;
}

/** The lists of every value of one filter in one ordering: the clients come by value, then in order. */
export function* filteredLists(render: RenderContext, store: RecordStore, filter: ServedFilter, counts: Map<string, number>, ordering: Ordering): Generator<ListPageFile> {
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

/**
 * The lists of every value of one filter, cut in the same pass as the unfiltered list: the page under
 * way of each value that has met a client so far. A value the filter's choice list lacks has none.
 */
export class ValueLists {
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
  *end(): Generator<ListPageFile> {
    for (const lists of this.lists.values()) yield* lists.end();
  }
}

/** Cuts one list (a filter's value or none, one ordering) into pages of 25, in every format. */
export class ListPages {
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
  *end(): Generator<ListPageFile> {
    if (this.clients.length > 0 || this.page === 1) yield* this.emit();
  }

  /** The files of the page under way, in every format, each client in the same bytes as its record file; the next client starts the next page. */
  *emit(): Generator<ListPageFile> {
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
