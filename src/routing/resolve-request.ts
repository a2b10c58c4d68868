import { jsonStringContent } from '../render/json-text.ts';
import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';

/**
 * What answers a request, decided from the rewrite map alone (contract sections 3 to 5). Pure: the
 * preview serves the answer, tests compare host adapters against it.
 */
export type Answer =
  | { kind: 'file'; status: 200; file: string }
  | { kind: 'error'; status: number; body: string; file: string }
  | { kind: 'redirect'; status: 301; location: string };

/** Longest value echoed back in an error's detail: enough to recognise, never a megabyte. */
const ECHO_LIMIT = 100;

export function resolveRequest(map: RewriteMap, method: string, target: string): Answer {
  const { rawPath, rawQuery } = splitTarget(target);
  const route = matchRoute(map, normalizePath(rawPath));

  if (route.kind === 'none') return error(map.errors.notFound);
  if (!map.methods.includes(method)) return methodNotAllowed(map, method);
  if (route.kind === 'redirect') {
    return { kind: 'redirect', status: 301, location: `${route.path}/${rawQuery === undefined ? '' : `?${rawQuery}`}` };
  }

  const query = lastValues(rawQuery ?? '');
  if (route.kind === 'record') {
    const folder = pick(route.format, query.get('format'));
    if (folder === undefined) return error(map.errors.notFound);
    return { kind: 'file', status: 200, file: fill(route.file, { format: folder, id: route.id }) };
  }
  return resolveList(map, query);
}

function resolveList(map: RewriteMap, query: Map<string, string>): Answer {
  const list = map.list;
  const format = pick(list.format, query.get('format'));
  if (format === undefined) return error(map.errors.notFound);

  const orderingValue = query.get('ordering');
  const ordering = pick(list.ordering, orderingValue);
  if (ordering === undefined) return error(map.errors.unsupportedOrdering, { value: orderingValue ?? '' });

  const pageSize = query.get('page_size');
  if (pageSize !== undefined && /^[0-9]+$/.test(pageSize)) {
    const size = Number(pageSize);
    if (size >= 1 && size < list.pageSize.served) return error(map.errors.unsupportedPageSize, { value: pageSize });
  }

  for (const name of list.rejectedFilters) {
    const value = query.get(name);
    // An empty filter filters nothing on the live service either.
    if (value !== undefined && value !== '') {
      const answer = map.errors.unsupportedFilter;
      return error({ ...answer, ...answer.byName[name], template: answer.template }, { name, value });
    }
  }

  const page = pageNumber(query.get('page'), list.page.last, list.page.lastAlias);
  if (page === undefined) return error(map.errors.invalidPage);
  return { kind: 'file', status: 200, file: fill(list.file, { format, ordering, page: String(page) }) };
}

/** `page`: absent or empty is 1, `last` the last page, else decimal digits within range. */
function pageNumber(value: string | undefined, last: number, lastAlias: string): number | undefined {
  if (value === undefined || value === '') return 1;
  if (value === lastAlias) return last;
  if (!/^[0-9]+$/.test(value)) return undefined;
  const page = Number(value);
  return page >= 1 && page <= last ? page : undefined;
}

type Route =
  | { kind: 'none' }
  | { kind: 'list' }
  | { kind: 'record'; id: string; file: string; format: ValueFolders }
  | { kind: 'redirect'; path: string };

const ID_SEGMENT = /^([0-9]+)\/$/;
const ID_SEGMENT_NO_SLASH = /^([0-9]+)$/;

/** Longest id looked up as a file: longer digit strings cannot name a record (and would make long paths). */
export const MAX_ID_DIGITS = 16;

function matchRoute(map: RewriteMap, path: string): Route {
  if (path === map.list.path) return { kind: 'list' };
  if (`${path}/` === map.list.path) return { kind: 'redirect', path };
  for (const record of map.records) {
    const prefix = record.path.slice(0, record.path.indexOf('{id}'));
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const id = ID_SEGMENT.exec(rest)?.[1];
    if (id !== undefined) {
      const digits = id.replace(/^0+(?=[0-9])/, '');
      if (digits.length > MAX_ID_DIGITS) return { kind: 'none' };
      return { kind: 'record', id: digits, file: record.file, format: record.format };
    }
    if (ID_SEGMENT_NO_SLASH.test(rest)) return { kind: 'redirect', path };
  }
  return { kind: 'none' };
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

/** The folder a parameter value selects; absent and empty are the same. */
function pick(folders: ValueFolders, value: string | undefined): string | undefined {
  return Object.hasOwn(folders, value ?? '') ? folders[value ?? ''] : undefined;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function methodNotAllowed(map: RewriteMap, method: string): Answer {
  const answer = map.errors.methodNotAllowed;
  return error({ ...answer, ...answer.byMethod[method], template: answer.template }, { method });
}

function error(answer: ErrorAnswer, values: Record<string, string> = {}): Answer {
  let body = answer.body;
  if (answer.template !== undefined) {
    body = answer.template.replace(/\{(value|name|method)\}/g, (_, key: string) => echo(values[key] ?? ''));
  }
  return { kind: 'error', status: answer.status, body, file: answer.file };
}

function echo(value: string): string {
  const shown = value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}...` : value;
  return jsonStringContent(shown);
}
