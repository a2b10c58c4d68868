import { CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX, type FilterName, type Format } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import { valueCounts } from '../plan/filter-plans.ts';
import { MAP_FILE, errorAnswers, listRoute, registrantsRoute, servedFilter, type RewriteMap } from '../plan/rewrite-map.ts';
import { recordFile } from '../plan/site-layout.ts';
import { siteUnits, type SiteUnit } from '../plan/site-units.ts';
import type { RecordStore } from '../store/record-store.ts';
import { clientBody, formatSuffix, registrantBody, type ListPage } from './bodies.ts';
import { bundleFiles, type BundleSettings } from './bundle-files.ts';
import { ListPages, ValueLists, filteredLists, type RenderContext } from './list-pages.ts';
import { RegistrantPages } from './registrant-list-pages.ts';

/**
 * One file of the output: its path relative to the output folder, and its text, or for a page of a
 * list its head and clients (`ListPage`), which the render thread writes and verifies piece by piece
 * without making the page's text (`listPageParts` makes it).
 */
export type SiteFile =
  | { path: string; body: string; page?: undefined; data?: undefined; ascii?: boolean }
  | { path: string; body?: undefined; page: ListPage; data?: undefined; ascii?: boolean }
  /** A file of the query bundle: bytes, checked as they were rendered (render/bundle-files.ts). */
  | { path: string; body?: undefined; page?: undefined; data: Uint8Array; ascii?: undefined };
// `ascii`: true when the text is ASCII only, known from the store; its UTF-8 bytes are then its Latin-1 bytes, a copy.

/** Every file of the site, unit after unit: what the render threads produce between them. */
export function* siteFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[], bundle: BundleInputs): Generator<SiteFile> {
  for (const unit of siteUnits(map)) yield* unitFiles(store, map, formats, unit, bundle);
}

/** What the query bundle needs beyond the store and the map: the filters' choices, and the previous build's bundle if any. */
export type BundleInputs = Pick<BundleSettings, 'choices' | 'previous'>;

/**
 * The files of one unit, produced lazily so that memory holds one page at a time:
 * - `list`: one pass over the store in an ordering cuts pages of 25 and renders them in every format,
 *   for the unfiltered list and for the value each client has of every filter in `filters`;
 * - `filtered`: one pass over the clients that have a value of the filter, by value and then in the
 *   ordering, cuts each value's pages;
 * - `clients`, `registrants`: the record files, the same bytes as inside the pages;
 * - `bundle`: the query bundle;
 * - `fixed`: the error answers and the map.
 */
export function* unitFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[], unit: SiteUnit, bundle: BundleInputs): Generator<SiteFile> {
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
    case 'registrants': {
      // Each registrant's record files, and the pages of the list in ascending id that it falls on.
      const list = registrantsRoute(map);
      const pages = list === undefined ? undefined : new RegistrantPages(render, list.count);
      for (const registrant of store.registrants()) {
        for (const [i, format] of formats.entries()) {
          const body = registrantBody(render.base, render.suffixes[i]!, registrant.id, registrant.fields);
          yield { path: recordFile(`${REGISTRANT_PATH_PREFIX}{id}/`, registrant.id, format), body, ascii: render.asciiBase && registrant.ascii === 1 };
        }
        if (pages !== undefined) yield* pages.add(registrant);
      }
      if (pages !== undefined) yield* pages.end();
      return;
    }
    case 'bundle':
      yield* bundleFiles(store.bundleRows(), { baseUrl: map.baseUrl, headers: map.headers, preflight: map.preflight, formats, ...bundle });
      return;
    case 'fixed':
      for (const answer of errorAnswers(map)) yield { path: answer.file, body: answer.body };
      yield { path: MAP_FILE, body: `${JSON.stringify(map, null, 2)}\n` };
  }
}
