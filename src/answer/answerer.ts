import { ALLOWED_METHODS, API_HEADERS, CLIENT_PATH_PREFIX, MAX_ID_DIGITS, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import { jsonStringContent, jsonText } from '../json-text.ts';
import { BundleFileError } from '../bundle/content-names.ts';
import { QueryBundle, type KeptBytes, type OpenOptions, type ReadFile } from '../bundle/query-bundle.ts';
import { formatSuffix, registrantBody } from '../render/bodies.ts';
import { MAX_QUERY_FIELDS, lastValues, queryFieldCount, queryPairs } from '../routing/query-pairs.ts';
import { matchPath, normalizePath, splitTarget } from '../routing/resolve-request.ts';
import { readFilters } from './filter-form.ts';
import { clientText, listPage } from './list-answer.ts';
import { LIST_ENGINES, type OrderedRecords } from './list-engines.ts';
import { LIST_RESOURCES, type ListResource } from './list-resource.ts';
import { orderingTerms } from './ordering-terms.ts';
import { PageCache } from './page-cache.ts';
import { ResultCache } from './result-cache.ts';

/**
 * The answerer: any request answered exactly as the live service answers it (contract section 9),
 * from the query bundle of a build. It has no Node API in it: the preview runs it in Node, the
 * Cloudflare Worker in workerd, the Netlify and Vercel edge functions in Deno and Vercel's edge
 * runtime, each handing it a way to read a file of the build (`ReadFile`).
 *
 * The lists are descriptions (list-resource.ts): the clients (section 9) and the registrants
 * (section 10). Errors, first match wins: a request target over 16 KiB (414, what the mirror adds to
 * the contract: docs/answers.md), a path outside the API (404), the method (405), a missing final
 * slash (301), more than 1,000 query fields (400, as Django refuses them), `format` (404), the
 * filters' values (400), `page` (404). Nothing else is an error of the request. A bundle file that is
 * damaged, missing or late is a 500 naming it, never an answer; one that is gone because a newer
 * build replaced the one read (content-named files are removed, never rewritten) sends the answerer
 * to the new manifest, and the request is answered wholly from the new build.
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
  /** Keep the orders of the latest searches for their next pages (result-cache.ts) and the latest pages (page-cache.ts); on by default. */
  cacheResults?: boolean;
  /** How long a read of a bundle file may take before the answer is a 500 naming it (10 s by default). */
  readMs?: number;
  /**
   * What the instance may keep, in bytes: the bundle's files (bundle/query-bundle.ts), the results
   * (result-cache.ts) and the pages (page-cache.ts). Each by default a Worker's: files 20 + 12 MiB,
   * results 8 MiB, pages 4 MiB.
   */
  keep?: { files?: KeptBytes; results?: number; pages?: number };
  /** Whether each file read is checked against its name (by default): false for a reader whose files were all checked before. */
  checkReads?: boolean;
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

/** The longest request target answered (in characters, non-ASCII bytes percent-encoded): Cloudflare's URL limit; past it, 414. */
export const MAX_TARGET_LENGTH = 16_384;
export const TARGET_TOO_LONG = `Request target too long: at most ${MAX_TARGET_LENGTH} characters.`;

export function createAnswerer(read: ReadFile, options: AnswererOptions = {}): Answerer {
  const pause = options.pause ?? (async () => {});
  // What an answer keeps for the next belongs to the bundle it was answered from: an answer of a
  // build being replaced must not leave an order or a page among the newer build's.
  const kept = new WeakMap<QueryBundle, Kept>();
  const keptOf = (opened: QueryBundle) => {
    let found = kept.get(opened);
    if (found === undefined) kept.set(opened, (found = newKept()));
    return found;
  };
  let opened: Promise<QueryBundle> | undefined;
  let bundle: QueryBundle | undefined;
  const opening: OpenOptions = { readMs: options.readMs, budgets: options.keep?.files, checkReads: options.checkReads };
  const open = () =>
    (opened ??= QueryBundle.open(read, opening).then((found) => {
      if (found === undefined) throw new Error('this build has no query bundle (bundle/manifest.json): build it again with this version');
      return (bundle = found);
    }));
  /** The manifest read again after `stale` missed a file: the bundle of a newer build, or undefined if the manifest is the same. */
  let reopening: Promise<QueryBundle | undefined> | undefined;
  const reopen = (stale: QueryBundle) =>
    (reopening ??= QueryBundle.open(read, opening)
      .then((found) => {
        if (found === undefined || found.manifestText === stale.manifestText) return undefined;
        if (bundle === stale) {
          opened = Promise.resolve(found);
          bundle = found;
        }
        return found;
      })
      .finally(() => (reopening = undefined)));

  function newKept(): Kept {
    const off = options.cacheResults === false;
    return {
      results: new ResultCache<OrderedRecords>(off ? 0 : options.keep?.results),
      pages: new PageCache(off ? 0 : options.keep?.pages),
    };
  }

  return {
    get bundle() {
      return bundle;
    },
    async answer(method, target, conditions = {}) {
      // The manifest first: the headers of every answer, errors included, are the build's.
      const found = await open();
      try {
        return await answerWith(found, method, target, conditions);
      } catch (error) {
        if (!(error instanceof BundleFileError)) throw error;
        const newer = error.problem === 'missing' ? await reopen(found).catch(() => undefined) : undefined;
        if (newer === undefined) return failure(error);
        return answerWith(newer, method, target, conditions).catch((again: unknown) => {
          if (again instanceof BundleFileError) return failure(again);
          throw again;
        });
      }
    },
  };

  /** The answer from `opened` (the bundle of a build), through a view of this answer's own. */
  async function answerWith(opened: QueryBundle, method: string, target: string, conditions: Conditions): Promise<Reply> {
    const found = opened.forAnswer();
    const { preflight, etag } = found.manifest;
    if (target.length > MAX_TARGET_LENGTH) return detailOf(found, 414, TARGET_TOO_LONG);
    if (method === 'OPTIONS' && preflight !== undefined) return { status: preflight.status, headers: { ...preflight.headers }, body: '' };
    const reply = await answerOf(found, keptOf(opened), method, target);
    return etag === undefined || reply.status !== 200 ? reply : conditional(reply, etag, conditions.ifNoneMatch);
  }

  async function answerOf(found: QueryBundle, kept: Kept, method: string, target: string): Promise<Reply> {
    const headers = found.manifest.headers ?? API_HEADERS;
    const detail = (status: number, text: string) => detailOf(found, status, text);
    // CONNECT names a host to tunnel to, never a path of the API; Deno hands it on as the URL of that
    // host (target `/`): a 405 whatever it names, as the preview answers it.
    if (method === 'CONNECT') return detail(405, 'Method "CONNECT" not allowed.');
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
      const query = rawQuery ?? '';
      const body = kept.pages.get(route.resource.kind, query) ?? (await listBody(found, kept, route.resource, query, pairs, values));
      if (typeof body === 'object') return { status: 400, headers: { ...headers }, body: body.errorBody };
      return body === undefined ? detail(404, 'Invalid page.') : { status: 200, headers: { ...headers }, body };
    }
    const body = await recordBody(found, route.kind, Number(route.id), format);
    return body === undefined ? detail(404, 'Not found.') : { status: 200, headers: { ...headers }, body };
  }

  /** A list page's body, undefined for a page past the last, or the filters' 400 body. */
  async function listBody(found: QueryBundle, { results, pages }: Kept, resource: ListResource, query: string, pairs: [string, string][], values: Map<string, string>): Promise<string | undefined | { errorBody: string }> {
    const filters = readFilters(values, found.manifest.choices, resource.filters);
    if ('errorBody' in filters) return { errorBody: filters.errorBody };
    const terms = orderingTerms(values.get('ordering'), resource.orderings);
    const engine = LIST_ENGINES[resource.kind];
    const key = JSON.stringify([resource.kind, filters.criteria, terms], (_, value: unknown) => (value instanceof Uint8Array ? Array.from(value) : value));
    const records = results.get(key) ?? (await engine.ordered(found, filters.criteria, terms, pause));
    const body = await listPage(found, records, pairs, values, { path: resource.path, text: engine.text });
    // Kept (again) once the page is read: an order read page by page weighs what it has read so far.
    // One that matches nothing is kept as the one empty order, in the empty results' share.
    if (records.count === 0) results.set(key, NO_RECORDS, 0, true);
    else results.set(key, records, records.bytes);
    if (body !== undefined) pages.set(resource.kind, query, records.count, body);
    return body;
  }
}

/** What an answerer keeps of a bundle's answers for the next ones. */
interface Kept {
  results: ResultCache<OrderedRecords>;
  pages: PageCache;
}

/** The order of every result that matches nothing: nothing kept for each but its key and entry. */
const NO_RECORDS: OrderedRecords = { count: 0, bytes: 0, slice: () => [] };

function detailOf(found: QueryBundle, status: number, text: string): Reply {
  return { status, headers: { ...(found.manifest.headers ?? API_HEADERS) }, body: jsonText({ detail: text }) };
}

/**
 * A bundle file damaged, missing or late: a 500 naming it, with the contract's headers and no
 * Cache-Control, so that no cache keeps a failure.
 */
function failure(error: BundleFileError): Reply {
  return { status: 500, headers: { ...API_HEADERS }, body: jsonText({ detail: `Internal error: ${error.message}.` }) };
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
