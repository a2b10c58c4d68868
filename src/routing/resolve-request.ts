import { jsonStringContent } from '../json-text.ts';
import type { ErrorAnswer, PageStep, RewriteMap, Route, Step } from '../plan/rewrite-map.ts';

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
  const parts: Record<string, string> = { id: match.id };
  for (const step of match.route.steps) {
    const answer = runStep(map, step, method, query, parts);
    if (answer !== undefined) return answer;
    if (match.missingSlash && step.step === map.paths.missingSlash.after) {
      return { kind: 'redirect', status: map.paths.missingSlash.status, location: `${match.path}/${rawQuery === undefined ? '' : `?${rawQuery}`}` };
    }
  }
  return { kind: 'file', status: 200, file: fill(match.route.file, parts), missing: map.errors[match.route.missingFile] };
}

/** One step: an error answer, or nothing (having filled its part of the file name). */
function runStep(map: RewriteMap, step: Step, method: string, query: Map<string, string>, parts: Record<string, string>): Answer | undefined {
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
      for (const name of step.rejected) {
        const value = query.get(name);
        // An empty filter filters nothing on the live service either.
        if (value !== undefined && value !== '') return error(map.errors[step.error], { name, value }, name);
      }
      return undefined;
    case 'page': {
      const page = pageNumber(step, query.get(step.param));
      if (page === undefined) return error(map.errors[step.error]);
      parts[step.sets] = page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page));
      return undefined;
    }
    default:
      // A map from a newer build: answering without the step would serve the wrong file.
      throw new Error(`unknown step ${(step satisfies never as Step).step}`);
  }
}

/** `page`: absent or empty is 1, the alias the last page, else decimal digits within range. */
function pageNumber(step: PageStep, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return 1;
  if (value === step.lastAlias) return step.last;
  if (!/^[0-9]+$/.test(value)) return undefined;
  const page = Number(value);
  return page >= 1 && page <= step.last ? page : undefined;
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
function matchPath(routePath: string, path: string, idDigits: number, missingSlash: boolean): string | undefined {
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

/** An error answer; `variant` names the fixed-body variant (a method, a filter) whose file it is. */
function error(answer: ErrorAnswer, values: Record<string, string> = {}, variant?: string): Answer {
  const file = (variant !== undefined && answer.variants?.[variant]?.file) || answer.file;
  let body = answer.body;
  if (answer.template !== undefined) {
    body = answer.template.replace(/\{(value|name|method)\}/g, (_, key: string) => echo(values[key] ?? ''));
  }
  return { kind: 'error', status: answer.status, body, file };
}

function echo(value: string): string {
  const shown = value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}...` : value;
  return jsonStringContent(shown);
}
