import path from 'node:path';
import { PAGE_SIZE, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import { lastPageFor } from '../plan/page-count.ts';
import { filtersStep, listRoute, registrantsRoute, type RewriteMap, type ServedFilter } from '../plan/rewrite-map.ts';
import { pageFileName, recordKind } from '../plan/site-layout.ts';

/**
 * What every body of a built folder must be, file by file: shared by the build, which verifies each
 * body as it writes it, and by `check`, which reads a folder back. How a link is followed is theirs:
 * `Follow` resolves a link through the rewrite map and says which file it names.
 */
export type Problem = (text: string) => void;

export interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number; url: string; registrant: { id: number; url: string } }[];
}

/** The list a page file belongs to: its folder, its filter (if any), and the last page the map gives it. */
export interface ListOfPage {
  folder: string;
  filter: { name: string; value: string } | undefined;
  last: number;
  /** The registrants list's records (contract section 10); the clients list's are `listShape`'s. */
  count?: number;
}

/** What `listOf` needs of the map, found once per map: it runs for every page of the folder. */
interface ListShape {
  prefix: string;
  last: number;
  /** Clients in the unfiltered list. */
  count: number;
  served: Map<string, ServedFilter>;
}
const listShapes = new WeakMap<RewriteMap, ListShape>();

export function listShape(map: RewriteMap): ListShape {
  let shape = listShapes.get(map);
  if (shape === undefined) {
    const list = listRoute(map);
    const served = new Map((filtersStep(list)?.served ?? []).map((filter) => [filter.param, filter]));
    listShapes.set(map, (shape = { prefix: list.file.slice(0, list.file.indexOf('{')), last: list.page.last, count: list.count, served }));
  }
  return shape;
}

export function listOf(file: string, map: RewriteMap): ListOfPage | undefined {
  const { prefix, last, served: filters } = listShape(map);
  if (!file.startsWith(prefix)) return registrantsListOf(file, map);
  const folder = path.posix.dirname(file) + '/';
  const first = /^([a-z_]+)=([^/]*)\//.exec(folder.slice(prefix.length));
  const served = first === null ? undefined : filters.get(first[1]!);
  if (served === undefined) return { folder, filter: undefined, last };
  const value = first![2]!;
  return { folder, filter: { name: served.param, value }, last: Object.hasOwn(served.lastPages, value) ? served.lastPages[value]! : 1 };
}

/** A page of the registrants list (ascending id, a folder per format, no filter), or undefined. */
function registrantsListOf(file: string, map: RewriteMap): ListOfPage | undefined {
  const route = registrantsRoute(map);
  if (route === undefined) return undefined;
  const prefix = route.file.slice(0, route.file.indexOf('{'));
  const folder = path.posix.dirname(file) + '/';
  if (!folder.startsWith(prefix) || !/^(?:format=[^/]*\/)?$/.test(folder.slice(prefix.length))) return undefined;
  return { folder, filter: undefined, last: route.page.last, count: route.count };
}

export type Follow = (from: string, field: string, link: unknown, reaches?: boolean) => string | undefined;

/** Holds one page to the rules; returns the count it gives, for the caller to compare across the pages of its list. */
export function checkPage(file: string, body: string | Buffer, map: RewriteMap, follow: Follow, problem: Problem): number | undefined {
  const page = parse<Page>(file, body, problem);
  if (page === undefined) return undefined;
  if (!Array.isArray(page.results)) return void problem(`${file}: no results`);
  if (!checkEnvelope(file, page, page.results.length, map, follow, problem)) return undefined;
  for (const client of page.results) followResultLinks(file, client, follow);
  return page.count;
}

/**
 * The rules of a page but those of its results: its count, how many results it has (`results`), and
 * `next`/`previous` leading to the neighbouring pages. False when the file is no page of a list.
 */
export function checkEnvelope(
  file: string,
  page: Omit<Page, 'results'>,
  results: number,
  map: RewriteMap,
  follow: Follow,
  problem: Problem,
  of: ListOfPage | undefined = listOf(file, map),
): boolean {
  const name = path.posix.basename(file);
  const number = name === pageFileName(1) ? 1 : Number(/^page=([0-9]+)\.json$/.exec(name)?.[1]);
  if (!Number.isInteger(number) || of === undefined) {
    problem(`${file}: not a page of a list`);
    return false;
  }
  const last = of.last;
  const served = PAGE_SIZE;
  // A filtered list's count is its own: the map holds only its last page.
  const count = of.filter === undefined ? (of.count ?? listShape(map).count) : page.count;
  const expected = number < last ? served : count - served * (last - 1);
  if (page.count !== count) problem(`${file}: count ${page.count}, the map says ${count}`);
  if (of.filter !== undefined && lastPageFor(count) !== last) problem(`${file}: count ${count} makes ${lastPageFor(count)} pages, the map says ${last}`);
  if (results !== expected) problem(`${file}: ${results} results, expected ${expected}`);
  const neighbour = (field: 'next' | 'previous', to: number) => {
    const link = page[field];
    const exists = to >= 1 && to <= last;
    if (!exists && link !== null) problem(`${file}: ${field} is ${link}, expected null`);
    if (exists && link === null) problem(`${file}: ${field} is null, expected page ${to}`);
    if (exists && link !== null) {
      const target = follow(file, field, link);
      if (target !== undefined && target !== `${path.posix.dirname(file)}/${pageFileName(to)}`) problem(`${file}: ${field} leads to ${target}`);
    }
  };
  neighbour('next', number + 1);
  neighbour('previous', number - 1);
  return true;
}

/** Follows the two links of one result of a page: the client's, and its registrant's. */
export function followResultLinks(file: string, client: Page['results'][number] | undefined, follow: Follow): void {
  // A result of the registrants list is a registrant, with no registrant of its own.
  if (listedRegistrant(file, client)) return void follow(file, `url of registrant ${client?.id}`, client?.url);
  follow(file, `url of client ${client?.id}`, client?.url);
  follow(file, `url of registrant ${client?.registrant?.id}`, client?.registrant?.url);
}

function listedRegistrant(file: string, result: Page['results'][number] | undefined): boolean {
  return file.startsWith(REGISTRANT_PATH_PREFIX.slice(1)) && result !== undefined && !('registrant' in result);
}

export function checkRecord(file: string, body: string | Buffer, follow: Follow, problem: Problem): void {
  const record = parse<{ id: number; url: string; registrant?: { url: string } }>(file, body, problem);
  if (record === undefined) return;
  const self = follow(file, 'url', record?.url, false);
  if (self !== undefined && self !== file) problem(`${file}: url leads to ${self}`);
  if (recordKind(file) === 'clients') follow(file, 'url of its registrant', record?.registrant?.url);
}

export function parse<T>(file: string, body: string | Buffer, problem: Problem): T | undefined {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as T;
  } catch (error) {
    problem(`${file}: not JSON (${(error as Error).message})`);
    return undefined;
  }
}
