import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllRedirects } from 'netlify-redirect-parser';
import { decodePath, splitTarget } from '../../src/routing/resolve-request.ts';
import type { Exchange, Probe } from './host-behaviours.ts';

/**
 * Netlify's routing, evaluated over the emitted `_redirects` and `_headers` the way Netlify documents
 * it, so the Netlify adapter can be tested here: `netlify-redirect-parser` (Netlify's own parser, the
 * one its CLI uses) reads `_redirects`, and `netlifyAnswer` applies the rules to a request. Each step
 * names the documentation it follows (docs.netlify.com unless said otherwise). Where Netlify documents
 * nothing, the choice is written down as such; the adapter's `gaps` and the report say where it matters.
 */

export interface NetlifyRule {
  from: string;
  /** Parameter -> literal value, or `:name` (a placeholder: any value, captured). */
  query: Record<string, string>;
  to: string;
  status: number;
  /** `200!`: the rule applies even where a file exists at the request path. */
  force: boolean;
}

export interface NetlifyHeaderRule {
  path: string;
  headers: [name: string, value: string][];
}

export interface NetlifySite {
  /** The published folder, whose files the rules rewrite to. */
  dir: string;
  /** The `_redirects` file read. */
  redirectsFile: string;
  rules: NetlifyRule[];
  headerRules: NetlifyHeaderRule[];
}

/**
 * Reads `_redirects` (with netlify-redirect-parser: any line it cannot read is an error here, as it is
 * a deploy warning on Netlify) and `_headers` from `configDir`, for the site published from `dir`:
 * Netlify reads them from the published folder itself, where `configDir` is `dir`.
 */
export async function loadNetlifySite(dir: string, configDir = dir): Promise<NetlifySite> {
  const redirectsFile = path.join(configDir, '_redirects');
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [redirectsFile],
    configRedirects: [],
    minimal: false,
  });
  if (errors.length > 0) throw new Error(`_redirects does not parse:\n${errors.map((error: Error) => error.message).join('\n')}`);
  const rules = (redirects as Partial<NetlifyRule & { conditions: Record<string, unknown>; signed: unknown }>[]).map((rule, index) => {
    if (rule.status === undefined || rule.to === undefined || rule.from === undefined) throw new Error(`rule ${index + 1} lacks from, to or status`);
    if (Object.keys(rule.conditions ?? {}).length > 0 || rule.signed !== undefined) throw new Error(`rule ${index + 1} uses conditions this evaluator does not model`);
    return { from: rule.from, query: rule.query ?? {}, to: rule.to, status: rule.status, force: rule.force ?? false };
  });
  return { dir, redirectsFile, rules, headerRules: parseHeadersFile(readFileSync(path.join(configDir, '_headers'), 'utf8')) };
}

/**
 * `_headers` syntax (routing/headers, "Syntax for the _headers file"): a URL path on its own line, the
 * headers for it indented below as `Name: value`; lines starting with `#` are comments.
 */
export function parseHeadersFile(text: string): NetlifyHeaderRule[] {
  const rules: NetlifyHeaderRule[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: [] });
      continue;
    }
    const header = /^\s+([^:\s]+):\s*(.*)$/.exec(line);
    const rule = rules.at(-1);
    if (header === null || rule === undefined) throw new Error(`_headers line ${index + 1} is neither a path nor an indented header: ${line}`);
    rule.headers.push([header[1]!, header[2]!.trim()]);
  }
  return rules;
}

/**
 * Headers Netlify's servers set themselves: custom values for these are "typically ignored"
 * (routing/headers, "Limitations").
 */
const IGNORED_CUSTOM_HEADERS = [
  'accept-ranges',
  'age',
  'allow',
  'alt-svc',
  'connection',
  'content-encoding',
  'content-length',
  'content-range',
  'date',
  'location',
  'server',
  'set-cookie',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

export function netlifyAnswer(site: NetlifySite, probe: Probe): Exchange {
  const { rawPath, rawQuery = '' } = splitTarget(probe.target);
  // Netlify does not document whether rules see the percent-decoded path; its CLI's emulation hands its
  // matcher `decodeURIComponent(pathname)` (netlify/cli src/utils/rules-proxy.ts), which this follows.
  const requestPath = decodePath(rawPath);
  // Query values are read decoded (URL query syntax). Which value of a repeated parameter a rule reads
  // is not documented: this evaluator reads the first (URLSearchParams.get), see the adapter's gaps.
  const query = new URLSearchParams(rawQuery);

  // Shadowing (routing/redirects/rewrites-proxies "Shadowing"; platform/request-chain): a rule without
  // `!` applies only when no file exists at the request path; otherwise the file is served.
  const fileAtPath = staticFile(site.dir, requestPath);
  for (const rule of site.rules) {
    if (fileAtPath !== undefined && !rule.force) continue;
    const params = matchRule(rule, requestPath, query);
    if (params === undefined) continue;
    return applyRule(site, probe, rule, params, rawQuery);
  }
  if (fileAtPath !== undefined) return serveFile(site, probe, requestPath, fileAtPath, 200);
  return notFound(site);
}

/**
 * Rules are read top to bottom and the first match wins (routing/redirects "Rule processing order").
 * Paths are case-sensitive (routing/redirects "Syntax for the _redirects file"); `:name` stands for one
 * path segment and a final `*` for the rest, `:splat` in the destination (redirect-options,
 * "Placeholders", "Splats"). "Netlify will match paths to rules regardless of whether or not they
 * contain a trailing slash" (redirect-options, "Trailing slash"). Query parameters listed in a rule must
 * all be present, each with its literal value or, for `name=:placeholder`, any value (redirect-options,
 * "Query parameters": a rule for several optional parameters needs one rule per combination, the most
 * specific first).
 */
function matchRule(rule: NetlifyRule, requestPath: string, query: URLSearchParams): Record<string, string> | undefined {
  const params = matchPath(rule.from, requestPath);
  if (params === undefined) return undefined;
  for (const [name, expected] of Object.entries(rule.query)) {
    const value = query.get(name);
    if (value === null) return undefined;
    if (expected.startsWith(':')) params[expected.slice(1)] = value;
    else if (value !== expected) return undefined;
  }
  return params;
}

export function matchPath(pattern: string, requestPath: string): Record<string, string> | undefined {
  const trim = (text: string) => (text.length > 1 && text.endsWith('/') ? text.slice(0, -1) : text);
  const wanted = trim(pattern).split('/');
  const given = trim(requestPath).split('/');
  const params: Record<string, string> = {};
  for (const [index, part] of wanted.entries()) {
    if (part === '*' && index === wanted.length - 1) {
      params.splat = given.slice(index).join('/');
      return params;
    }
    const segment = given[index];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = segment;
    } else if (part !== segment) return undefined;
  }
  return wanted.length === given.length ? params : undefined;
}

function applyRule(site: NetlifySite, probe: Probe, rule: NetlifyRule, params: Record<string, string>, rawQuery: string): Exchange {
  const destination = rule.to.replace(/:([A-Za-z_]\w*)/g, (whole, name: string) => params[name] ?? whole);
  // "When the status code is 301, 302 or 303 Netlify will redirect to the target url. With any other
  // status code Netlify will render the target url with the specified status code" (redirect-options,
  // "HTTP status codes"); query strings are passed on to the destination of 200, 301 and 302 rules.
  if ([301, 302, 303, 307, 308].includes(rule.status)) {
    const location = destination.includes('?') || rawQuery === '' ? destination : `${destination}?${rawQuery}`;
    return { status: rule.status, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`Redirecting to ${location}`) };
  }
  // An internal rewrite is served from the site's files and the rules are not read again ("this is not
  // a recursive operation, as we won't evaluate redirects again": platform/request-chain). A rewrite to
  // a file that does not exist is therefore Netlify's 404 (what nudeps/nudeps#120 reports from a deploy).
  const file = staticFile(site.dir, destination);
  if (file === undefined) return notFound(site);
  return serveFile(site, probe, probe.target.split('?')[0]!, file, rule.status);
}

/** The file Netlify would serve for a path: the file itself, or a folder's index.html. */
function staticFile(dir: string, sitePath: string): string | undefined {
  const relative = path.posix.normalize(sitePath);
  if (!relative.startsWith('/') || relative.split('/').includes('..')) return undefined;
  for (const candidate of [relative, `${relative.replace(/\/$/, '')}/index.html`]) {
    const file = path.join(dir, candidate);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // not there
    }
  }
  return undefined;
}

function serveFile(site: NetlifySite, probe: Probe, requestPath: string, file: string, status: number): Exchange {
  // Netlify answers methods other than GET and HEAD on its static files itself, with a 405 of its own
  // (reported from deploys in nuxt/nuxt#18576; the docs say nothing about methods on static files).
  if (probe.method !== 'GET' && probe.method !== 'HEAD') {
    return { status: 405, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from('Method Not Allowed') };
  }
  const headers: Record<string, string> = { 'content-type': file.endsWith('.json') ? 'application/json' : 'text/html; charset=UTF-8' };
  // Custom headers apply to files Netlify serves from its own store (routing/headers, "Limitations"),
  // matched on the request's URL path, minus the headers its servers set themselves.
  for (const rule of site.headerRules) {
    if (matchPath(rule.path, decodePath(requestPath)) === undefined) continue;
    for (const [name, value] of rule.headers) {
      if (!IGNORED_CUSTOM_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
  }
  return { status, headers, body: readFileSync(file) };
}

/**
 * A path nothing answers: the site's 404.html if it has one ("If you add a 404.html page to your site,
 * it will be picked up and displayed automatically for any failed paths": redirect-options, "Custom 404
 * page handling"), else Netlify's own page.
 */
function notFound(site: NetlifySite): Exchange {
  const custom = staticFile(site.dir, '/404.html');
  const body = custom === undefined ? Buffer.from('<!DOCTYPE html><title>Page not found</title><p>Page not found') : readFileSync(custom);
  return { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, body };
}
