import { jsonStringContent } from '../json-text.ts';
import type { ErrorAnswer, FiltersStep, PageStep, RewriteMap, Route, ServedFilter, Step } from '../plan/rewrite-map.ts';
import { decimalInteger } from './filter-values.ts';

/**
 * What answers a request, decided from the rewrite map alone: the path picks a route, then the route's
 * steps run in the map's order, each answering an error or filling a part of the file's name. Pure:
 * the preview serves the answer, the Cloudflare Worker and the CloudFront Function carry this same
 * code, and tests compare every other host against it.
 */
export type Answer =
  | { kind: 'file'; status: 200; file: string; missing: ErrorAnswer }
  | { kind: 'error'; status: number; body: string; file: string }
  | { kind: 'redirect'; status: number; location: string };

/** Longest value echoed back in an error's detail: enough to recognise, never a megabyte. */
const ECHO_LIMIT = 100;

export function resolveRequest(map: RewriteMap, method: string, target: string): Answer {
  const { rawPath, rawQuery } = splitTarget(target);
  const match = matchRoute(map, normalizePath(rawPath));
  if (match === undefined) return error(map.errors.notFound);

  const query = lastValues(rawQuery ?? '');
  const state: StepState = { parts: { id: match.id }, last: undefined, listless: false, missing: match.route.missingFile };
  for (const step of match.route.steps) {
    const answer = runStep(map, step, method, query, state);
    if (answer !== undefined) return answer;
    if (match.missingSlash && step.step === map.paths.missingSlash.after) {
      return { kind: 'redirect', status: map.paths.missingSlash.status, location: `${match.path}/${rawQuery === undefined ? '' : `?${rawQuery}`}` };
    }
  }
  // A filter's value that no list can have: no file to look for, its first page is the empty list.
  if (state.listless) return error(map.errors[state.missing]);
  return { kind: 'file', status: 200, file: fill(match.route.file, state.parts), missing: map.errors[state.missing] };
}

/** What the steps so far have decided: parts of the file's name, and what the later steps need. */
interface StepState {
  parts: Record<string, string>;
  /** The last page of the filtered list in use (the page step's own `last` without a filter). */
  last: number | undefined;
  /** The filter's value names no list that could exist (a number too long to be an id). */
  listless: boolean;
  /** What answers when the file does not exist. */
  missing: keyof RewriteMap['errors'];
}

/** One step: an error answer, or nothing (having filled its part of the file name). */
function runStep(map: RewriteMap, step: Step, method: string, query: Map<string, string>, state: StepState): Answer | undefined {
  const parts = state.parts;
  switch (step.step) {
    case 'method':
      return step.allowed.includes(method) ? undefined : error(map.errors[step.error], { method }, method);
    case 'choice': {
      const value = query.get(step.param) ?? '';
      if (!Object.hasOwn(step.choices, value)) return error(map.errors[step.error], { value });
      parts[step.sets] = step.choices[value]!;
      return undefined;
    }
    case 'pageSize': {
      const value = query.get(step.param);
      if (value === undefined || !/^[0-9]+$/.test(value)) return undefined;
      const size = Number(value);
      return size >= 1 && size < step.served ? error(map.errors[step.error], { value }) : undefined;
    }
    case 'filters':
      return runFilters(map, step, query, state);
    case 'page': {
      const page = pageNumber(step, state.last ?? step.last, query.get(step.param));
      if (page === undefined) return error(map.errors[step.error]);
      parts[step.sets] = page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page));
      if (page === 1 && state.last !== undefined) state.missing = step.firstMissing;
      return undefined;
    }
    default:
      // A map from a newer build: answering without the step would serve the wrong file.
      throw new Error(`unknown step ${(step satisfies never as Step).step}`);
  }
}

/**
 * The filters step (contract section 8): a filter not served, then a combination, then the value. An
 * empty value filters nothing, on the live service too.
 */
function runFilters(map: RewriteMap, step: FiltersStep, query: Map<string, string>, state: StepState): Answer | undefined {
  for (const name of step.rejected) {
    const value = query.get(name);
    if (value !== undefined && value !== '') return error(map.errors[step.error], { name, value }, name);
  }
  const used: ServedFilter[] = [];
  for (const filter of step.served) {
    const value = query.get(filter.param);
    if (value !== undefined && value !== '') used.push(filter);
  }
  state.parts[step.sets] = '';
  if (used.length === 0) return undefined;
  if (used.length > 1) {
    const names = used.map((filter) => filter.param);
    return error(map.errors[step.combinedError], { name: names.join(' and ') }, `${names[0]}&${names[1]}`);
  }
  const filter = used[0]!;
  const value = query.get(filter.param)!;
  const canonical = filterValue(filter, value, map.paths.idDigits);
  if (canonical === undefined) return error(map.errors[filter.error], { name: filter.param, value }, filter.param);
  if (canonical === '') state.listless = true;
  state.parts[step.sets] = filter.folder.replace('{value}', canonical);
  state.last = Object.hasOwn(filter.lastPages, canonical) ? filter.lastPages[canonical] : 1;
  return undefined;
}

/** A filter's value in canonical form; `''` for a number no list can have; undefined when invalid. */
function filterValue(filter: ServedFilter, value: string, idDigits: number): string | undefined {
  if (filter.values === 'number') return decimalInteger(value, idDigits);
  return filter.choices!.indexOf(value) >= 0 ? value : undefined;
}

/** `page`: absent or empty is 1, the alias the last page, else decimal digits within range. */
function pageNumber(step: PageStep, last: number, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return 1;
  if (value === step.lastAlias) return last;
  if (!/^[0-9]+$/.test(value)) return undefined;
  const page = Number(value);
  return page >= 1 && page <= last ? page : undefined;
}

interface RouteMatch {
  route: Route;
  id: string;
  /** The path matched the route without its final `/` (a redirect once the method is allowed). */
  missingSlash: boolean;
  path: string;
}

function matchRoute(map: RewriteMap, path: string): RouteMatch | undefined {
  const withSlash = path.endsWith('/') ? path : `${path}/`;
  for (const route of map.routes) {
    const id = matchPath(route.path, withSlash, map.paths.idDigits, path !== withSlash);
    if (id !== undefined) return { route, id, missingSlash: path !== withSlash, path };
  }
  return undefined;
}

/**
 * The id a path names on a route (`''` for a route without one), or undefined when it does not match.
 * Leading zeros of an id are dropped; an id longer than `idDigits` names no record, but its path
 * without the final slash is still redirected (the redirect does not look the record up).
 */
export function matchPath(routePath: string, path: string, idDigits: number, missingSlash: boolean): string | undefined {
  const at = routePath.indexOf('{id}');
  if (at < 0) return path === routePath ? '' : undefined;
  const prefix = routePath.slice(0, at);
  const suffix = routePath.slice(at + '{id}'.length);
  if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length < prefix.length + suffix.length + 1) return undefined;
  const digits = path.slice(prefix.length, path.length - suffix.length);
  if (!/^[0-9]+$/.test(digits)) return undefined;
  const id = digits.replace(/^0+(?=[0-9])/, '');
  return id.length > idDigits && !missingSlash ? undefined : id;
}

/** A request target split at its first `?`: the path as sent, and the query as sent (undefined: no `?`). */
export function splitTarget(target: string): { rawPath: string; rawQuery: string | undefined } {
  const queryStart = target.indexOf('?');
  return queryStart < 0 ? { rawPath: target, rawQuery: undefined } : { rawPath: target.slice(0, queryStart), rawQuery: target.slice(queryStart + 1) };
}

/** Percent-decodes a path; malformed percent-encoding is kept as sent (it then matches no route: 404). */
export function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return rawPath;
  }
}

/** Percent-decodes the path (as Django does before routing) and reads runs of `/` as one. */
export function normalizePath(rawPath: string): string {
  return decodePath(rawPath).replace(/\/{2,}/g, '/');
}

/**
 * Query parameters, names and values URL-decoded (`+` is a space), a repeated parameter counting
 * with its last value (contract section 3).
 */
export function lastValues(rawQuery: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) values.set(name, value);
  return values;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * An answer of the map's fixed ones; `variant` names its variant for a method, a filter or two, whose
 * file it is. The variant's own template is filled in, else the answer's: a variant's fixed body is
 * for hosts that cannot fill in one.
 */
function error(answer: ErrorAnswer, values: Record<string, string> = {}, variant?: string): Answer {
  const own = variant !== undefined && answer.variants !== undefined && Object.hasOwn(answer.variants, variant) ? answer.variants[variant] : undefined;
  const file = own?.file ?? answer.file;
  const template = own?.template ?? answer.template;
  let body = own?.body ?? answer.body;
  if (template !== undefined) {
    const whole = (own?.template !== undefined ? own : answer).echo === 'whole';
    body = template.replace(/\{(value|name|method)\}/g, (_, key: string) => echo(values[key] ?? '', whole));
  }
  return { kind: 'error', status: answer.status, body, file };
}

function echo(value: string, whole: boolean): string {
  const shown = !whole && value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}...` : value;
  return jsonStringContent(shown);
}
