import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodePath, splitTarget } from '../../src/routing/resolve-request.ts';
import type { Exchange, Probe } from './host-behaviours.ts';

/**
 * Vercel's routing, evaluated over an emitted `vercel.json` the way Vercel documents it, so the Vercel
 * adapter can be tested here. Sources: the vercel.json reference (vercel.com/docs/project-configuration,
 * "rewrites", "redirects", "headers" and the `has`/`missing` object definition), the schema Vercel
 * validates vercel.json with and the code that turns it into routes (vercel/vercel
 * packages/routing-utils: schemas.ts, superstatic.ts, index.ts `getTransformedRoutes`), and for what
 * those leave open, the open-source code of the same model: Vercel's CLI router (packages/cli/src/util/
 * dev/router.ts) and Next.js's `matchHas` (the `has` field is documented alike for next.config.js).
 */

export interface QueryCondition {
  type: string;
  key?: string;
  value?: string;
}

interface Conditions {
  has?: QueryCondition[];
  missing?: QueryCondition[];
}

export interface VercelConfigFile {
  redirects: ({ source: string; destination: string; statusCode?: number; permanent?: boolean } & Conditions)[];
  headers: ({ source: string; headers: { key: string; value: string }[] } & Conditions)[];
  rewrites: ({ source: string; destination: string; statusCode?: number } & Conditions)[];
}

export interface VercelSite {
  dir: string;
  config: VercelConfigFile;
}

/** The schema's limits (routing-utils schemas.ts); older schemas allowed 1,024 rewrites, so that. */
const LIMITS = { redirects: 1024, rewrites: 1024, has: 16 };
const ALLOWED_KEYS: Record<string, string[]> = {
  top: ['$schema', 'redirects', 'headers', 'rewrites'],
  redirects: ['source', 'destination', 'statusCode', 'permanent', 'has', 'missing'],
  headers: ['source', 'headers', 'has', 'missing'],
  rewrites: ['source', 'destination', 'statusCode', 'has', 'missing'],
};

/**
 * Reads `vercel.json` and checks it the way a deploy would: only properties the schema allows, within
 * its limits, every source a path-to-regexp pattern, every `:segment` of a destination defined by the
 * source or a `has` item (routing-utils `checkPatternSyntax`).
 */
export function loadVercelSite(dir: string): VercelSite {
  const config = JSON.parse(readFileSync(path.join(dir, 'vercel.json'), 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(config)) if (!ALLOWED_KEYS.top!.includes(key)) problems.push(`unknown property ${key}`);
  for (const kind of ['redirects', 'headers', 'rewrites'] as const) {
    const items = (config[kind] ?? []) as Record<string, unknown>[];
    if (kind !== 'headers' && items.length > LIMITS[kind]) problems.push(`${items.length} ${kind}, the schema allows ${LIMITS[kind]}`);
    items.forEach((item, index) => {
      for (const key of Object.keys(item)) if (!ALLOWED_KEYS[kind]!.includes(key)) problems.push(`${kind}[${index}] has unknown property ${key}`);
      for (const list of ['has', 'missing'] as const) {
        const conditions = (item[list] ?? []) as QueryCondition[];
        if (conditions.length > LIMITS.has) problems.push(`${kind}[${index}].${list} has more than ${LIMITS.has} items`);
        for (const condition of conditions) {
          if (condition.type !== 'query' || typeof condition.key !== 'string') problems.push(`${kind}[${index}].${list}: only query items are modelled`);
          if (condition.value !== undefined) new RegExp(condition.value);
        }
      }
      const source = compileSource(String(item.source));
      if (typeof item.destination === 'string') {
        const defined = new Set([...source.names, ...hasSegments(item as Conditions)]);
        for (const [, name] of String(item.destination).matchAll(/:([A-Za-z0-9_]+)/g)) {
          if (!defined.has(name!)) problems.push(`${kind}[${index}] uses :${name} in its destination, defined neither by its source nor by has`);
        }
      }
    });
  }
  if (problems.length > 0) throw new Error(`vercel.json would not deploy:\n${problems.join('\n')}`);
  return { dir, config: { redirects: [], headers: [], rewrites: [], ...(config as Partial<VercelConfigFile>) } };
}

export function vercelAnswer(site: VercelSite, probe: Probe): Exchange {
  const { rawPath, rawQuery = '' } = splitTarget(probe.target);
  // Vercel does not say whether sources see the percent-decoded path; this evaluator decodes it first.
  const requestPath = decodePath(rawPath);
  const query = new URLSearchParams(rawQuery);
  const { config, dir } = site;

  // The order vercel.json's parts become routes (routing-utils `getTransformedRoutes`): redirects, then
  // headers (routes that `continue`), then `{ handle: 'filesystem' }`, then rewrites.
  for (const redirect of config.redirects) {
    const params = matchRule(redirect, requestPath, query);
    if (params === undefined) continue;
    // `permanent` is 308 or 307, else `statusCode`, else 308 (routing-utils `convertRedirects`). "By
    // default, all query strings that are found in the source path will be passed to the destination
    // path" (Vercel guide "How do I perform Vercel redirects based on query strings?").
    const status = redirect.permanent === undefined ? (redirect.statusCode ?? 308) : redirect.permanent ? 308 : 307;
    const destination = fill(redirect.destination, params);
    const location = destination.includes('?') || rawQuery === '' ? destination : `${destination}?${rawQuery}`;
    // A redirect route ends the routing before the header routes: it carries no custom headers.
    return { status, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`Redirecting to ${location} (${status})`) };
  }

  const headers: Record<string, string> = {};
  for (const rule of config.headers) {
    if (matchRule(rule, requestPath, query) === undefined) continue;
    for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
  }

  // "The source property should NOT be a file because precedence is given to the filesystem prior to
  // rewrites being applied" (project-configuration, rewrites).
  const file = staticFile(dir, requestPath);
  if (file !== undefined) return serveFile(probe, file, 200, headers);

  // Each rewrite becomes a route with `check: true` (routing-utils `convertRewrites`), and `statusCode`
  // its status. The first that matches answers with its destination file; when that file does not
  // exist, a rewrite with a status ends there with it, one without goes on to the next rewrites with the
  // rewritten path (the CLI router's `check` handling, "Equivalent to now-proxy").
  let currentPath = requestPath;
  for (const rewrite of config.rewrites) {
    const params = matchRule(rewrite, currentPath, query);
    if (params === undefined) continue;
    const destinationPath = fill(rewrite.destination, params).split('?')[0]!;
    const destinationFile = staticFile(dir, destinationPath);
    if (destinationFile !== undefined) return serveFile(probe, destinationFile, rewrite.statusCode ?? 200, headers);
    if (rewrite.statusCode !== undefined) return platformError(rewrite.statusCode);
    currentPath = destinationPath;
  }
  // Nothing answers: the deployment's 404.html if any, else Vercel's own NOT_FOUND page.
  const custom = staticFile(dir, '/404.html');
  return custom === undefined ? platformError(404) : serveFile(probe, custom, 404, {});
}

/**
 * A source and its conditions. Sources are path-to-regexp patterns, compiled strict and case-sensitive
 * (routing-utils `sourceToRegex`). `has` and `missing` follow the documented object definition ("The
 * value to check for, if undefined any value will match. A regex like string can be used to capture a
 * specific part of the value", named groups usable in the destination), as Next.js's `matchHas`
 * implements it: the value is a regular expression matched against the whole parameter value, an
 * empty value counts as absent, a repeated parameter is read with its last value, and every `has` item
 * must match while no `missing` item may.
 */
function matchRule(rule: { source: string } & Conditions, requestPath: string, query: URLSearchParams): Record<string, string> | undefined {
  const source = compileSource(rule.source);
  const match = source.regex.exec(requestPath);
  if (match === null) return undefined;
  const params: Record<string, string> = {};
  source.names.forEach((name, index) => {
    params[name] = match[index + 1] ?? '';
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
  if (!(rule.has ?? []).every(matches) || (rule.missing ?? []).some(matches)) return undefined;
  return params;
}

/** Named groups and value-less keys of `has` items can be used in a destination (`collectHasSegments`). */
function hasSegments(rule: Conditions): string[] {
  return (rule.has ?? []).flatMap((item) =>
    item.value === undefined ? [item.key!] : [...item.value.matchAll(/\(\?<([a-zA-Z][a-zA-Z0-9]*)>/g)].map((found) => found[1]!),
  );
}

function fill(destination: string, params: Record<string, string>): string {
  return destination.replace(/:([A-Za-z0-9_]+)/g, (whole, name: string) => params[name] ?? whole);
}

interface CompiledSource {
  regex: RegExp;
  /** Parameter names in group order (unnamed ones numbered from 0, as path-to-regexp does). */
  names: string[];
}

const compiled = new Map<string, CompiledSource>();

/**
 * The subset of path-to-regexp 6.1 (the version routing-utils vendors) that vercel.json sources use:
 * literal text, `:name` parameters with an optional `(pattern)`, unnamed `(pattern)` groups, a `/`
 * before a parameter taken as its prefix, modifiers after a parameter. Options as `sourceToRegex`
 * passes them: strict (no optional final slash), sensitive, delimiter `/`, anchored at both ends.
 */
export function compileSource(source: string): CompiledSource {
  const cached = compiled.get(source);
  if (cached !== undefined) return cached;
  const escape = (text: string) => text.replace(/([.+*?=^!:${}()[\]|/\\])/g, '\\$1');
  const names: string[] = [];
  let route = '^';
  let literal = '';
  let unnamed = 0;
  let index = 0;
  const readPattern = (): string | undefined => {
    if (source[index] !== '(') return undefined;
    let depth = 1;
    let pattern = '';
    let at = index + 1;
    if (source[at] === '?') throw new TypeError(`Pattern cannot start with "?" at ${at} in ${source}`);
    while (at < source.length) {
      const char = source[at]!;
      if (char === '\\') {
        pattern += char + source[at + 1];
        at += 2;
        continue;
      }
      if (char === ')' && --depth === 0) break;
      if (char === '(') {
        depth++;
        if (source[at + 1] !== '?') throw new TypeError(`Capturing groups are not allowed at ${at} in ${source}`);
      }
      pattern += char;
      at++;
    }
    if (depth !== 0 || pattern === '') throw new TypeError(`Unbalanced or empty pattern at ${index} in ${source}`);
    index = at + 1;
    return pattern;
  };
  while (index < source.length) {
    const prefix = source[index] === '/' && (source[index + 1] === ':' || source[index + 1] === '(') ? '/' : '';
    if (prefix !== '') index++;
    let name: string | undefined;
    if (source[index] === ':') {
      const found = /^[0-9A-Za-z_]+/.exec(source.slice(index + 1));
      if (found === null) throw new TypeError(`Missing parameter name at ${index} in ${source}`);
      name = found[0];
      index += 1 + name.length;
    }
    const pattern = readPattern();
    if (name !== undefined || pattern !== undefined) {
      route += escape(literal);
      literal = '';
      const modifier = /^[*+?]/.test(source[index] ?? '') ? source[index++]! : '';
      if (modifier === '*' || modifier === '+') throw new TypeError(`repeated parameters are not modelled: ${source}`);
      names.push(name ?? String(unnamed++));
      route += `(?:${escape(prefix)}(${pattern ?? '[^\\/]+?'}))${modifier}`;
      continue;
    }
    const char = source[index]!;
    if ('*+?{}'.includes(char)) throw new TypeError(`Unexpected ${char} at ${index} in ${source}`);
    if (char === '\\') {
      literal += source[index + 1];
      index += 2;
      continue;
    }
    literal += prefix + char;
    index++;
  }
  route += `${escape(literal)}$`;
  const result = { regex: new RegExp(route), names };
  compiled.set(source, result);
  return result;
}

/** The file served for a path: the file itself, or a folder's index.html. */
function staticFile(dir: string, sitePath: string): string | undefined {
  const relative = path.posix.normalize(sitePath);
  if (!relative.startsWith('/') || relative.split('/').includes('..')) return undefined;
  for (const candidate of [relative, `${relative.replace(/\/$/, '')}/index.html`]) {
    try {
      const file = path.join(dir, candidate);
      if (statSync(file).isFile()) return file;
    } catch {
      // not there
    }
  }
  return undefined;
}

function serveFile(probe: Probe, file: string, status: number, headers: Record<string, string>): Exchange {
  // vercel.json cannot route by method (rewrites, redirects and headers have no method field), and a
  // static file answers GET and HEAD only: Vercel's own 405 for the others, without custom headers.
  if (probe.method !== 'GET' && probe.method !== 'HEAD') return platformError(405);
  const contentType = file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
  return { status, headers: { 'content-type': contentType, ...headers }, body: readFileSync(file) };
}

function platformError(status: number): Exchange {
  const code = status === 404 ? 'NOT_FOUND' : status === 405 ? 'METHOD_NOT_ALLOWED' : `STATUS_${status}`;
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`${code}\n`) };
}
