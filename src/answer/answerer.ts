import { ALLOWED_METHODS, API_HEADERS, CLIENT_PATH_PREFIX, MAX_ID_DIGITS, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import { jsonStringContent, jsonText } from '../json-text.ts';
import { QueryBundle, type ReadFile } from '../bundle/query-bundle.ts';
import { formatSuffix, registrantBody } from '../render/bodies.ts';
import { MAX_QUERY_FIELDS, lastValues, queryFieldCount, queryPairs } from '../routing/query-pairs.ts';
import { matchPath, normalizePath, splitTarget } from '../routing/resolve-request.ts';
import type { OrderedClients } from './client-order.ts';
import { readFilters } from './filter-form.ts';
import { clientText, listPage } from './list-answer.ts';
import { LIST_ENGINES } from './list-engines.ts';
import { LIST_RESOURCES, type ListResource } from './list-resource.ts';
import { orderingTerms } from './ordering-terms.ts';
import { ResultCache } from './result-cache.ts';

/**
 * The answerer: any request answered exactly as the live service answers it (contract section 9),
 * from the query bundle of a build. It has no Node API in it: the preview runs it in Node, the
 * Cloudflare Worker in workerd, the Netlify and Vercel edge functions in Deno and Vercel's edge
 * runtime, each handing it a way to read a file of the build (`ReadFile`).
 *
 * The lists are descriptions (list-resource.ts): the clients (section 9) and the registrants
 * (section 10). Errors, first match wins: a path outside the API (404), the method (405), a missing final slash
 * (301), more than 1,000 query fields (400, as Django refuses them), `format` (404), the filters'
 * values (400), `page` (404). Nothing else is an error.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Sent for GET; a HEAD answer is the same without it. */
  body: string;
}

export interface AnswererOptions {
  /** Called between long steps of one answer, so that a server can answer others meanwhile. */
  pause?: () => Promise<void>;
  /** Keep the orders of the latest searches for their next pages (result-cache.ts); on by default. */
  cacheResults?: boolean;
}

/** The request's conditional headers, for hosts that pass them on. */
export interface Conditions {
  ifNoneMatch?: string;
}

export interface Answerer {
  answer(method: string, target: string, conditions?: Conditions): Promise<Reply>;
  /** The bundle, once an answer has opened it: for tests and benchmarks that count its reads. */
  readonly bundle: QueryBundle | undefined;
}

export function createAnswerer(read: ReadFile, options: AnswererOptions = {}): Answerer {
  const pause = options.pause ?? (async () => {});
  const results = new ResultCache<OrderedClients>(options.cacheResults === false ? 0 : undefined);
  let opened: Promise<QueryBundle> | undefined;
  let bundle: QueryBundle | undefined;
  const open = () =>
    (opened ??= QueryBundle.open(read).then((found) => {
      if (found === undefined) throw new Error('this build has no query bundle (bundle/manifest.json): build it again with this version');
      return (bundle = found);
    }));

  return {
    get bundle() {
      return bundle;
    },
    async answer(method, target, conditions = {}) {
      // The manifest first: the headers of every answer, errors included, are the build's.
      const found = await open();
      const { preflight, etag } = found.manifest;
      if (method === 'OPTIONS' && preflight !== undefined) return { status: preflight.status, headers: { ...preflight.headers }, body: '' };
      const reply = await answerOf(found, method, target);
      return etag === undefined || reply.status !== 200 ? reply : conditional(reply, etag, conditions.ifNoneMatch);
    },
  };

  async function answerOf(found: QueryBundle, method: string, target: string): Promise<Reply> {
    const headers = found.manifest.headers ?? API_HEADERS;
    const detail = (status: number, text: string): Reply => ({ status, headers: { ...headers }, body: jsonText({ detail: text }) });
    const { rawPath, rawQuery } = splitTarget(target);
    const path = normalizePath(rawPath);
    const route = routeOf(path);
    if (route === undefined) return detail(404, 'Not found.');
    if (!(ALLOWED_METHODS as readonly string[]).includes(method)) return detail(405, `Method "${method}" not allowed.`);
    if (!path.endsWith('/')) return { status: 301, headers: { ...headers, Location: `${path}/${rawQuery === undefined ? '' : `?${rawQuery}`}` }, body: '' };
    if (queryFieldCount(rawQuery ?? '') > MAX_QUERY_FIELDS) return detail(400, `Too many query parameters: at most ${MAX_QUERY_FIELDS}, as the live service takes.`);
    const pairs = queryPairs(rawQuery ?? '');
    const values = lastValues(pairs);
    const format = values.get('format') ?? '';
    if (!(found.manifest.formats as string[]).includes(format)) return detail(404, 'Not found.');
    if (route.kind === 'list') {
      const body = await listBody(found, route.resource, pairs, values);
      if (typeof body === 'object') return { status: 400, headers: { ...headers }, body: body.errorBody };
      return body === undefined ? detail(404, 'Invalid page.') : { status: 200, headers: { ...headers }, body };
    }
    const body = await recordBody(found, route.kind, Number(route.id), format);
    return body === undefined ? detail(404, 'Not found.') : { status: 200, headers: { ...headers }, body };
  }

  /** A list page's body, undefined for a page past the last, or the filters' 400 body. */
  async function listBody(found: QueryBundle, resource: ListResource, pairs: [string, string][], values: Map<string, string>): Promise<string | undefined | { errorBody: string }> {
    const filters = readFilters(values, found.manifest.choices, resource.filters);
    if ('errorBody' in filters) return { errorBody: filters.errorBody };
    const terms = orderingTerms(values.get('ordering'), resource.orderings);
    const engine = LIST_ENGINES[resource.kind];
    const key = JSON.stringify([resource.kind, filters.criteria, terms], (_, value: unknown) => (value instanceof Uint8Array ? Array.from(value) : value));
    let records = results.get(key);
    if (records === undefined) {
      records = await engine.ordered(found, filters.criteria, terms, pause);
      results.set(key, records, records.count);
    }
    return listPage(found, records, pairs, values, { path: resource.path, text: engine.text });
  }
}

/**
 * A 200 with the build's ETag, or a 304 (same headers, no body) when the request's If-None-Match names
 * it: one ETag a build, as every answer of a build changes together (weak comparison, RFC 9110 13.1.2).
 */
function conditional(reply: Reply, etag: string, ifNoneMatch: string | undefined): Reply {
  const headers = { ...reply.headers, ETag: etag };
  return namesEtag(ifNoneMatch, etag) ? { status: 304, headers, body: '' } : { ...reply, headers };
}

/** Whether an If-None-Match names the ETag (or is `*`): weak comparison, RFC 9110 13.1.2. */
export function namesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

type Route = { kind: 'list'; resource: ListResource } | { kind: 'client' | 'registrant'; id: string };

/** The resource a path names, with or without its final slash; undefined outside the API. */
function routeOf(path: string): Route | undefined {
  const withSlash = path.endsWith('/') ? path : `${path}/`;
  const resource = LIST_RESOURCES.find((list) => list.path === withSlash);
  if (resource !== undefined) return { kind: 'list', resource };
  const missingSlash = withSlash !== path;
  for (const [kind, prefix] of [['client', CLIENT_PATH_PREFIX], ['registrant', REGISTRANT_PATH_PREFIX]] as const) {
    const id = matchPath(`${prefix}{id}/`, withSlash, MAX_ID_DIGITS, missingSlash);
    if (id !== undefined) return { kind, id };
  }
  return undefined;
}

/** A record's body (contract section 4), or undefined when no such record is served. */
async function recordBody(bundle: QueryBundle, kind: 'client' | 'registrant', id: number, format: string): Promise<string | undefined> {
  const base = jsonStringContent(bundle.manifest.baseUrl);
  const suffix = jsonStringContent(formatSuffix(format));
  if (kind === 'registrant') {
    const fields = await bundle.servedRegistrantFields(id);
    return fields === undefined ? undefined : registrantBody(base, suffix, id, fields);
  }
  const index = await bundle.findClient(id);
  return index < 0 ? undefined : clientText(bundle, index, base, suffix);
}
