import { CLIENT_PATH_PREFIX, LIST_PATH, ORDERINGS, REGISTRANT_PATH_PREFIX, type FilterName, type Format, type Ordering } from '../contract.ts';
import { valueCounts, type ValueCountReader } from './filter-plans.ts';
import { errorAnswers, filtersStep, listRoute, recordRoutes, registrantsRoute, servedFilter, type RewriteMap, type ServedFilter } from './rewrite-map.ts';
import { BUNDLE_FOLDERS } from './bundle-layout.ts';
import { listFolder, recordFolder } from './site-layout.ts';

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
  /** The query bundle (bundle/), which the answerer reads where code runs: one pass over the store. */
  | { kind: 'bundle' }
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
  // The bundle first: one thread renders it while the other starts on the lists.
  const units: SiteUnit[] = [{ kind: 'bundle' }, ...ORDERINGS.map((ordering): SiteUnit => ({ kind: 'list', ordering, filters: alongside }))];
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

/**
 * How many files `siteFiles` yields, known before one is rendered: for a progress bar.
 * `filteredPages`: pages of every filtered list, in one format and ordering; `bundleFiles`: the
 * query bundle's (plan/bundle-layout.ts).
 */
export function siteFileCount(map: RewriteMap, formats: readonly Format[], filteredPages: number, bundleFiles: number): number {
  const records = recordRoutes(map).reduce((sum, route) => sum + route.count, 0);
  const registrantPages = registrantsRoute(map)?.page.last ?? 0;
  return ((listRoute(map).page.last + filteredPages) * ORDERINGS.length + records + registrantPages) * formats.length + errorAnswers(map).length + 1 + bundleFiles;
}

/** What a unit's folders are read from: the store's record ids and its filter values, passed in (plan/ imports no store). */
export interface FolderReader extends ValueCountReader {
  clientIdsInRange(from: number | null, to: number | null): Iterable<number>;
  registrantIds(): Iterable<number>;
}

/**
 * The folders that a unit's files go in, known before any is rendered: a list's folder per format
 * (and per value of its filters), a record's folder per record. The render thread makes them all
 * before it writes the unit's files, as the floor does for the whole tree: on ext4, folders made
 * between files cost the kernel a fifth more than the same folders made first (issue 13). The
 * fixed unit's few folders are made as its files need them.
 */
export function* unitFolders(store: FolderReader, map: RewriteMap, formats: readonly Format[], unit: SiteUnit): Generator<string> {
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
      if (registrantsRoute(map) !== undefined) for (const format of formats) yield listFolder(REGISTRANT_PATH_PREFIX, undefined, format, '');
      return;
    case 'bundle':
      yield* BUNDLE_FOLDERS;
      return;
    case 'fixed':
      return;
  }
}

/** The folders of every value's lists of a filter in one ordering: the values that have lists (`valueCounts`), each in every format. */
function* valueFolders(store: ValueCountReader, filter: ServedFilter, formats: readonly Format[], ordering: Ordering): Generator<string> {
  for (const value of valueCounts(store, filter.param as FilterName, filter.choices).keys()) {
    for (const format of formats) yield listFolder(LIST_PATH, { name: filter.param, value }, format, ordering);
  }
}
