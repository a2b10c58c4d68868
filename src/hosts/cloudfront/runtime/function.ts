import type { ErrorAnswer, RewriteMap, ServedFilter } from '../../../plan/rewrite-map.ts';
import { decimalInteger } from '../../../routing/filter-values.ts';
import { lastValues, resolveRequest, splitTarget } from '../../../routing/resolve-request.ts';

/**
 * The CloudFront Function (viewer request, runtime cloudfront-js-2.0) around the router: it puts the
 * request back together as the viewer sent it, asks `resolveRequest` (the preview's own code), and
 * either points `request.uri` at the file for the S3 origin or answers the error or redirect itself.
 *
 * The map is not in the function's code: CloudFront allows 10 KB of code, and the router alone takes
 * most of it. It lives in the function's key value store (cloudfront.ts writes the import file): the
 * map itself in pieces, and for every filter value that has lists (every valid choice, with 0 for a
 * choice no client has) the last page of its lists, under the key of its folder. A viewer-request
 * function cannot ask S3 whether a file exists, so the store is also how it knows that a filter's
 * value has no lists: their first page is then the router's `missing` answer (the empty list).
 *
 * Reading the store is asynchronous and the router is not, so the work goes in rounds: `routeRequest`
 * says which keys it still needs, the async `handler` (./handler.ts) that the bundler puts
 * around it reads them one by one (the documentation advises `await` over Promise combinators), and
 * asks again, until it has an answer. hosts/program-bundler.ts bundles this file with the
 * router into ES5; at emit time only `MAP_KEY` is read from it (key-value-store.ts).
 *
 * The distribution's custom error responses answer a missing record (an id no record has), with the
 * page cloudfront.ts picks from the routes' `missingFile` (distribution-config.json).
 */

/** The store's key for the number of pieces the map is cut into; piece `i` is `map/i`. */
export const MAP_KEY = 'map';

/** The store's values read so far, by key; `null` for a key the store does not have. */
export type Found = Record<string, string | null>;

/** A round: the keys still to read, or the answer. */
export type Round = { need: string[] } | { need?: undefined; answer: ViewerRequest | FunctionResponse };

/** The parts of CloudFront's viewer-request event read here. */
export interface ViewerRequestEvent {
  request: ViewerRequest;
}

export interface ViewerRequest {
  method: string;
  /** The path as the viewer sent it, still percent-encoded, without the query. */
  uri: string;
  /** One field a parameter name, as the viewer sent it (names and values still percent-encoded). */
  querystring: Record<string, QueryField>;
  /** The query as sent, without `?`; `undefined` when the request had no `?`. Newer than `querystring`. */
  rawQueryString?: () => string | undefined;
}

export interface QueryField {
  value: string;
  /** Present when the parameter is repeated: every value, in order. */
  multiValue?: { value: string }[];
}

/** A response the function answers with itself; header names in lower case, as CloudFront wants. */
export interface FunctionResponse {
  statusCode: number;
  headers: Record<string, { value: string }>;
  body?: { encoding: 'text'; data: string };
}

/** A filter the request uses, and the store's key for its value's lists. */
interface Lookup {
  filter: ServedFilter;
  /** The value as the router reads it from the query. */
  value: string;
  /** The value in canonical form, as the router fills it into the folder. */
  canonical: string;
  key: string;
  /** Where that folder's files lie in the built folder, when the route's file names the filter's folder. */
  folder: string | undefined;
}

export function routeRequest(request: ViewerRequest, found: Found): Round {
  const text = storedMap(found);
  if (typeof text !== 'string') return { need: text };
  const map = JSON.parse(text) as RewriteMap;
  // With --cors, a preflight on any path: before the router, whose method step would answer 405.
  if (request.method === 'OPTIONS' && map.preflight) return { answer: { statusCode: map.preflight.status, headers: headersOf(map.preflight.headers) } };
  const target = request.uri + querySuffix(request);
  const lookups = filterLookups(map, target);
  const need = lookups.map((lookup) => lookup.key).filter((key) => !Object.hasOwn(found, key));
  if (need.length > 0) return { need };

  for (let i = 0; i < lookups.length; i++) giveValue(lookups[i]!, found[lookups[i]!.key]!);
  const answer = resolveRequest(map, request.method, target);
  if (answer.kind === 'file') {
    // The file lies in the folder of a value the store says has no lists: the build wrote no such file.
    for (let i = 0; i < lookups.length; i++) {
      const { key, folder } = lookups[i]!;
      if (!hasLists(found[key]!) && folder !== undefined && answer.file.indexOf(folder) === 0) return { answer: fixedAnswer(map, answer.missing) };
    }
    request.uri = `/${answer.file}`;
    // The file alone names the answer: S3 gets (and the cache keys on) nothing else.
    request.querystring = {};
    return { answer: request };
  }
  const headers = headersOf(map.headers);
  if (answer.kind === 'redirect') {
    headers['location'] = { value: answer.location };
    return { answer: { statusCode: answer.status, headers } };
  }
  return { answer: { statusCode: answer.status, headers, body: { encoding: 'text', data: answer.body } } };
}

/** The map's text from its pieces, or the keys still to read. */
function storedMap(found: Found): string | string[] {
  if (!Object.hasOwn(found, MAP_KEY)) return [MAP_KEY];
  const count = found[MAP_KEY];
  // A store without the map is a deploy gone wrong: failing shows it (CloudFront answers 503).
  if (count === null || count === undefined) throw new Error(`the key value store has no "${MAP_KEY}": import the emitted key-value-store.json`);
  const keys: string[] = [];
  for (let i = 0; i < Number(count); i++) keys.push(`${MAP_KEY}/${i}`);
  const missing = keys.filter((key) => !Object.hasOwn(found, key));
  if (missing.length > 0) return missing;
  return keys.map((key) => found[key]).join('');
}

/**
 * The filters the query gives a value, with their store keys: the value as the router reads it (its
 * own `lastValues`), in canonical form as the router fills it in (numbers through its own
 * `decimalInteger`; a choice is its own canonical form). A value that is no number, or a number no
 * list can have, needs no key: the router answers it without the store.
 */
function filterLookups(map: RewriteMap, target: string): Lookup[] {
  const query = lastValues(splitTarget(target).rawQuery ?? '');
  const lookups: Lookup[] = [];
  for (const route of map.routes) {
    for (const step of route.steps) {
      if (step.step !== 'filters') continue;
      const at = route.file.indexOf(`{${step.sets}}`);
      for (const filter of step.served) {
        const value = query.get(filter.param);
        if (value === undefined || value === '') continue;
        const canonical = filter.values === 'number' ? decimalInteger(value, map.paths.idDigits) : value;
        if (canonical === undefined || canonical === '') continue;
        const key = filter.folder.split('{value}').join(canonical);
        lookups.push({ filter, value, canonical, key, folder: at < 0 ? undefined : route.file.slice(0, at) + key });
      }
    }
  }
  return lookups;
}

/**
 * What the store says of a value, put where the router reads it: a choice it holds is valid (the
 * stored map's `choices` are empty), and a last page above 1 goes into `lastPages`.
 */
function giveValue({ filter, value, canonical }: Lookup, stored: string | null): void {
  if (stored === null) return;
  if (filter.values !== 'number') filter.choices = [value];
  const last = Number(stored);
  if (last > 1) {
    const lastPages: Record<string, number> = {};
    lastPages[canonical] = last;
    filter.lastPages = lastPages;
  }
}

/** A value has lists when the store holds a last page for it; 0 is a valid choice that no client has. */
function hasLists(stored: string | null): boolean {
  return stored !== null && Number(stored) > 0;
}

function fixedAnswer(map: RewriteMap, answer: ErrorAnswer): FunctionResponse {
  return { statusCode: answer.status, headers: headersOf(map.headers), body: { encoding: 'text', data: answer.body } };
}

function headersOf(given: Record<string, string>): Record<string, { value: string }> {
  const headers: Record<string, { value: string }> = {};
  for (const name in given) headers[name.toLowerCase()] = { value: given[name]! };
  return headers;
}

/**
 * `?` and the query as the viewer sent it. `rawQueryString()` gives it whole; where it is missing
 * (or, as in the console's test tool, empty while parameters are present) the query is rebuilt from
 * `querystring`, whose names and values CloudFront passes still percent-encoded: the same pairs, the
 * order of different names aside, which the router does not read.
 */
function querySuffix(request: ViewerRequest): string {
  const pairs: string[] = [];
  for (const name in request.querystring) {
    const field = request.querystring[name]!;
    const values = field.multiValue ? field.multiValue : [field];
    for (let i = 0; i < values.length; i++) pairs.push(values[i]!.value === '' ? name : `${name}=${values[i]!.value}`);
  }
  const raw = typeof request.rawQueryString === 'function' ? request.rawQueryString() : undefined;
  if (typeof raw === 'string' && (raw !== '' || pairs.length === 0)) return `?${raw}`;
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
