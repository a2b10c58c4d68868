import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodePath, splitTarget } from '../../src/routing/resolve-request.ts';
import type { Exchange, Probe } from './host-behaviours.ts';

/**
 * Vercel's routing, evaluated over an emitted `vercel.json` the way Vercel documents it, so the Vercel
 * adapter can be tested here. The file holds `routes`, Vercel's ordered routing rules. Sources: the
 * routes reference (vercel.com/docs/build-output-api/configuration, "routes": the `Source` and
 * `Handler` routes, which "uses the same syntax as the routes property of the vercel.json file"), the
 * `has`/`missing` object definition, the schema and normalisation Vercel validates routes with
 * (vercel/vercel packages/routing-utils: schemas.ts `routesSchema`, index.ts `normalizeRoutes`), and
 * for what those leave open, the open-source code of the same model: Vercel's CLI router and dev server
 * (packages/cli/src/util/dev/router.ts, server.ts) and Next.js's `matchHas` (the `has` field is
 * documented alike for next.config.js). Each step below names what it follows.
 */

export interface QueryCondition {
  type: string;
  key?: string;
  value?: string;
}

export interface SourceRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  check?: boolean;
  caseSensitive?: boolean;
  has?: QueryCondition[];
  missing?: QueryCondition[];
}

export type VercelRoute = SourceRoute | { handle: string };

export interface VercelConfigFile {
  routes: VercelRoute[];
}

export interface VercelSite {
  dir: string;
  config: VercelConfigFile;
}

/**
 * The properties this evaluator models, all of them in the schema (`routesSchema`), and its limits: a
 * `src`, `dest` or `has` value of 4,096 characters at most (`maxLength` in `routesSchema` and
 * `matchableValueSchema`), 100 headers, 16 `has` or `missing` items (`hasSchema`), and 2,048 routes
 * ("Routes created per Deployment", vercel.com/docs/limits: 2048 on Hobby and Pro).
 */
const ROUTE_KEYS = ['src', 'dest', 'headers', 'status', 'continue', 'check', 'caseSensitive', 'has', 'missing'];
const HANDLES = ['filesystem', 'hit', 'miss', 'rewrite', 'error', 'resource'];
const LIMITS = { text: 4096, headers: 100, has: 16, routes: 2048 };

/**
 * Reads `vercel.json` and checks it the way a deploy would: only properties the schema allows (those
 * this evaluator models), within its limits, every `src` a regular expression (`checkRegexSyntax`),
 * each `handle` once at most; and, as a check of this evaluator's own, every `$name` of a `dest` or
 * header defined by a named group of its `src` or by a `has` item.
 */
export function loadVercelSite(dir: string): VercelSite {
  const config = JSON.parse(readFileSync(path.join(dir, 'vercel.json'), 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(config)) if (key !== '$schema' && key !== 'routes') problems.push(`property ${key} is not modelled`);
  const routes = (config.routes ?? []) as Record<string, unknown>[];
  if (routes.length > LIMITS.routes) problems.push(`${routes.length} routes, more than ${LIMITS.routes}`);
  const handles: unknown[] = [];
  routes.forEach((route, index) => {
    const where = `routes[${index}]`;
    if ('handle' in route) {
      if (Object.keys(route).length !== 1 || !HANDLES.includes(String(route.handle)) || handles.includes(route.handle)) problems.push(`${where} is not a valid handle route`);
      handles.push(route.handle);
      return;
    }
    for (const key of Object.keys(route)) if (!ROUTE_KEYS.includes(key)) problems.push(`${where} has property ${key}, not modelled`);
    const src = String(route.src ?? '');
    if (!src.startsWith('^') || !src.endsWith('$')) problems.push(`${where}.src is not anchored (Vercel would anchor it: normalizeRoutes)`);
    if (src.length > LIMITS.text || String(route.dest ?? '').length > LIMITS.text) problems.push(`${where}: src or dest longer than ${LIMITS.text}`);
    let names: string[] = [];
    try {
      names = Object.keys(new RegExp(`${src}|`).exec('')?.groups ?? {});
    } catch {
      problems.push(`${where}.src is not a regular expression: ${src}`);
    }
    const headers = (route.headers ?? {}) as Record<string, string>;
    if (Object.keys(headers).length > LIMITS.headers) problems.push(`${where} has more than ${LIMITS.headers} headers`);
    for (const list of ['has', 'missing'] as const) {
      const conditions = (route[list] ?? []) as QueryCondition[];
      if (conditions.length > LIMITS.has) problems.push(`${where}.${list} has more than ${LIMITS.has} items`);
      for (const condition of conditions) {
        if (condition.type !== 'query' || typeof condition.key !== 'string') problems.push(`${where}.${list}: only query items are modelled`);
        if (condition.value !== undefined) new RegExp(condition.value);
        if ((condition.value ?? '').length > LIMITS.text) problems.push(`${where}.${list}: a value longer than ${LIMITS.text}`);
      }
    }
    const defined = new Set([...names, ...hasSegments(route as unknown as SourceRoute)]);
    for (const text of [String(route.dest ?? ''), ...Object.values(headers)]) {
      for (const [, name] of text.matchAll(/\$([A-Za-z][A-Za-z0-9]*)/g)) {
        if (!defined.has(name!)) problems.push(`${where} uses $${name}, defined neither by its src nor by has`);
      }
    }
  });
  if (problems.length > 0) throw new Error(`vercel.json would not deploy:\n${problems.join('\n')}`);
  return { dir, config: { routes: routes as unknown as VercelRoute[] } };
}

export function vercelAnswer(site: VercelSite, probe: Probe): Exchange {
  const { rawPath, rawQuery = '' } = splitTarget(probe.target);
  // Vercel does not say whether `src` sees the percent-decoded path; this evaluator decodes it first.
  // Not modelled: Vercel's CLI dev server answers a GET whose path holds `//` with a 301 to the path
  // with runs of slashes merged, before any route (packages/cli/src/util/dev/server.ts
  // `serveProjectAsNowV2`: "If there is a double-slash present in the URL, then perform a redirect to
  // make it clean"); the platform's documentation says nothing of it, so routes see the path as sent.
  const requestPath = decodePath(rawPath);
  const query = new URLSearchParams(rawQuery);
  const { config, dir } = site;

  // Routes are read in order ("routing rules that will be applied", build-output-api "routes"). A
  // route that matches and `continue`s adds its headers ("A set of headers to apply for responses")
  // and goes on; any other that matches answers. `{ handle: 'filesystem' }` serves a file that exists
  // at the path reached so far.
  const headers: Record<string, string> = {};
  let currentPath = requestPath;
  for (const route of config.routes) {
    if ('handle' in route) {
      const file = route.handle === 'filesystem' ? staticFile(dir, currentPath) : undefined;
      if (file !== undefined) return serveFile(probe, file, 200, headers);
      continue;
    }
    const params = matchRoute(route, currentPath, query);
    if (params === undefined) continue;
    const destination = route.dest === undefined ? currentPath : fill(route.dest, params);
    const location = Object.entries(route.headers ?? {}).find(([name]) => name.toLowerCase() === 'location');
    for (const [name, value] of Object.entries(route.headers ?? {})) {
      if (name.toLowerCase() !== 'location') headers[name.toLowerCase()] = fill(value, params);
    }
    if (route.continue) {
      currentPath = destination.split('?')[0]!;
      continue;
    }
    // "status: A status code to respond with. Can be used in tandem with Location: header to implement
    // redirects." The request's query is kept, as for vercel.json's `redirects`, which become such
    // routes (routing-utils `convertRedirects`): "all query strings that are found in the source path
    // will be passed to the destination path" (Vercel guide "How do I perform Vercel redirects based
    // on query strings?"). The redirect is answered on its own, without the headers of the routes
    // before it (the CLI dev server's `exitWithStatus` sends it before it sets the routes' headers).
    if (location !== undefined && route.status !== undefined && route.status >= 300 && route.status < 400) {
      const target = fill(location[1], params);
      const where = target.includes('?') || rawQuery === '' ? target : `${target}?${rawQuery}`;
      return { status: route.status, headers: { location: where, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`Redirecting to ${where}`) };
    }
    // The destination file answers, with the route's status. With `check`, a destination that does
    // not exist goes on through the next routes with the rewritten path, or, for a route with a status,
    // ends there with it (the CLI router's `check` handling: "Equivalent to now-proxy
    // exit_with_status()"); without, it is Vercel's own 404.
    const destinationPath = destination.split('?')[0]!;
    const file = staticFile(dir, destinationPath);
    if (file !== undefined) return serveFile(probe, file, route.status ?? 200, headers);
    if (route.check && route.status === undefined) {
      currentPath = destinationPath;
      continue;
    }
    return platformError(route.status ?? 404);
  }
  // Nothing answers: the deployment's 404.html if any, else Vercel's own NOT_FOUND page.
  const custom = staticFile(dir, '/404.html');
  return custom === undefined ? platformError(404) : serveFile(probe, custom, 404, {});
}

/**
 * A route's `src` and conditions. `src` is "a PCRE-compatible regular expression that matches each
 * incoming pathname (excluding querystring)", anchored at both ends (`normalizeRoutes` adds `^` and
 * `$`), case-insensitive unless `caseSensitive` ("Specifies whether or not the route should match with
 * case sensitivity"; the CLI router matches with the `i` flag). Its named groups fill `$name` of the
 * destination and numbered ones `$1`. `has` and `missing` follow the documented object definition
 * ("The value to check for, if undefined any value will match. A regex like string can be used to
 * capture a specific part of the value", named groups usable in the destination), as Next.js's
 * `matchHas` implements it: the value is a regular expression matched against the whole parameter
 * value, an empty value counts as absent, a repeated parameter is read with its last value, and every
 * `has` item must match while no `missing` item may.
 */
function matchRoute(route: SourceRoute, requestPath: string, query: URLSearchParams): Record<string, string> | undefined {
  const match = new RegExp(route.src, route.caseSensitive ? '' : 'i').exec(requestPath);
  if (match === null) return undefined;
  const params: Record<string, string> = { ...match.groups };
  match.forEach((value, index) => {
    if (index > 0) params[String(index)] = value ?? '';
  });
  const matches = (condition: QueryCondition): boolean => {
    const value = query.getAll(condition.key!).at(-1);
    if (value === undefined || value === '') return false;
    if (condition.value === undefined) {
      params[condition.key!] = value;
      return true;
    }
    const found = new RegExp(`^${condition.value}$`).exec(value);
    if (found === null) return false;
    Object.assign(params, found.groups ?? {});
    return true;
  };
  if (!(route.has ?? []).every(matches) || (route.missing ?? []).some(matches)) return undefined;
  return params;
}

/** Named groups and value-less keys of `has` items can be used in a destination (`collectHasSegments`). */
function hasSegments(route: SourceRoute): string[] {
  return (route.has ?? []).flatMap((item) =>
    item.value === undefined ? [item.key!] : [...item.value.matchAll(/\(\?<([a-zA-Z][a-zA-Z0-9]*)>/g)].map((found) => found[1]!),
  );
}

/** `$name` and `$1` in a destination or header (the CLI router's `resolveRouteParameters`). */
function fill(text: string, params: Record<string, string>): string {
  return text.replace(/\$([1-9a-zA-Z]+)/g, (_, name: string) => params[name] ?? '');
}

/**
 * The file served for a path: the file itself, else the folder's index file. An index file is
 * `index` or `index.<extension>`, any extension, `index.html` first, then the shortest name (Vercel
 * docs, "Directory Listing", "Index Files"); the CLI's dev server picks the same ("return a non-.html
 * index file" in packages/cli/src/util/dev/server.ts `findBuildMatch`, `findAsset`, `isIndex`, which
 * "mimic" the platform's file lookup). So `api/v1/clients/index.json` answers `/api/v1/clients/`
 * before any rewrite. The path is looked up as sent: runs of slashes are not merged (`findAsset`
 * only drops one final slash).
 */
function staticFile(dir: string, sitePath: string): string | undefined {
  if (!sitePath.startsWith('/') || sitePath.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  const isFile = (file: string) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (isFile(path.join(dir, sitePath))) return path.join(dir, sitePath);
  const folder = path.join(dir, sitePath.replace(/\/$/, ''));
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  const indexes = names
    .filter((name) => path.basename(name, path.extname(name)) === 'index' && !name.endsWith('.') && !name.includes('..') && isFile(path.join(folder, name)))
    .sort((a, b) => Number(b === 'index.html') - Number(a === 'index.html') || a.length - b.length || (a < b ? -1 : 1));
  return indexes[0] === undefined ? undefined : path.join(folder, indexes[0]);
}

function serveFile(probe: Probe, file: string, status: number, headers: Record<string, string>): Exchange {
  // A static file answers GET and HEAD only: Vercel's own 405 for the others, without custom headers,
  // whatever route led to the file (a route's `methods` only choose which requests it matches).
  if (probe.method !== 'GET' && probe.method !== 'HEAD') return platformError(405);
  const contentType = file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
  return { status, headers: { 'content-type': contentType, ...headers }, body: readFileSync(file) };
}

function platformError(status: number): Exchange {
  const code = status === 404 ? 'NOT_FOUND' : status === 405 ? 'METHOD_NOT_ALLOWED' : `STATUS_${status}`;
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`${code}\n`) };
}
