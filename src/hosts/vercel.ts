import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';
import { MAX_ID_DIGITS } from '../routing/resolve-request.ts';
import type { HostAdapter, HostTarget } from './host-adapter.ts';
import { escapeRegex } from './query-patterns.ts';
import { fillFile } from './route-parts.ts';

/**
 * Vercel: one `vercel.json`, in the built folder that Vercel deploys. Vercel reads `redirects`, then
 * `headers`, then the files, then `rewrites` (in order, the first whose destination exists answers).
 *
 * - `rewrites` answer the API. Their `has` and `missing` conditions test query parameters: a `has` item
 *   without a value needs the parameter with a non-empty value, one with a value needs it to match that
 *   regular expression, whose named groups fill the destination. So each rule states the whole request
 *   it answers, in the contract's order of precedence: an unserved format, an unsupported ordering, a
 *   page_size of 1 to 24, a filter, then the page (a regular expression of the numbers 1 to the last,
 *   leading zeros allowed), then any other page. Errors are rewrites to the map's error files with the
 *   error's status (`statusCode`). The last rewrite answers any other path with the JSON 404.
 * - `redirects` send a known path missing its final slash to the path with it (301); Vercel keeps the
 *   query string.
 * - `headers` put the map's headers on every path.
 *
 * Paths are matched as path-to-regexp patterns in which every `/` also matches a run of them, so
 * repeated slashes read as one. Vercel serves a file that exists at the request path before any
 * rewrite, so the built files (`/pages/...`, `/rewrite-map.json`) also answer at their own paths.
 */
export const vercel: HostAdapter = {
  name: 'vercel',
  summary: 'a vercel.json (rewrites, redirects, headers) for the built folder that Vercel deploys',
  files: ['vercel.json'],
  publishedWithSite: true,
  gaps: {
    methods: "vercel.json rewrites and redirects cannot test the method, and Vercel answers other methods on its files itself (a 405 without the JSON body)",
    headers:
      "a 301 for a missing slash is answered before Vercel applies `headers` (redirects come first in its routing), so it carries none of the map's headers, nor do Vercel's own 405 answers",
  },
  emit: (target) => [{ name: 'vercel.json', text: `${JSON.stringify(vercelConfig(target), null, 2)}\n` }],
};

/** A `has` or `missing` item over the query string. */
export interface QueryCondition {
  type: 'query';
  key: string;
  value?: string;
}

export interface VercelRewrite {
  source: string;
  destination: string;
  has?: QueryCondition[];
  missing?: QueryCondition[];
  statusCode?: number;
}

export interface VercelRedirect {
  source: string;
  destination: string;
  statusCode: number;
}

export interface VercelHeaders {
  source: string;
  headers: { key: string; value: string }[];
}

export interface VercelConfig {
  $schema: string;
  redirects: VercelRedirect[];
  headers: VercelHeaders[];
  rewrites: VercelRewrite[];
}

function vercelConfig({ map }: HostTarget): VercelConfig {
  const list = map.list;
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    redirects: [
      { source: pathSource(list.path.slice(0, -1), 'lda_list'), destination: list.path, statusCode: map.paths.redirectMissingSlash },
      ...map.records.map((record) => {
        const prefix = record.path.slice(0, record.path.indexOf('{id}'));
        return { source: `${pathSource(prefix, 'lda_prefix')}:digits([0-9]+)`, destination: `${prefix}:digits/`, statusCode: map.paths.redirectMissingSlash };
      }),
    ],
    headers: [{ source: '/(.*)', headers: Object.entries(map.headers).map(([key, value]) => ({ key, value })) }],
    rewrites: [...listRewrites(map), ...map.records.flatMap((record) => recordRewrites(map, record)), errorRewrite('/(.*)', map.errors.notFound)],
  };
}

function listRewrites(map: RewriteMap): VercelRewrite[] {
  const list = map.list;
  const errors = map.errors;
  const source = pathSource(list.path, 'lda_list');
  const pageFile = (format: string, ordering: string, page: string) => `/${fillFile(list.file, { format, ordering, page })}`;
  const rewrites: VercelRewrite[] = [
    ...unservedValue(source, 'format', list.format, errors.notFound),
    ...unservedValue(source, 'ordering', list.ordering, errors.unsupportedOrdering),
  ];
  if (list.pageSize.served > 1) {
    rewrites.push(errorRewrite(source, errors.unsupportedPageSize, { has: [query('page_size', `^0*(?:${numberRange(1, list.pageSize.served - 1)})$`)] }));
  }
  for (const name of list.rejectedFilters) {
    rewrites.push(errorRewrite(source, errors.unsupportedFilter.byName[name] ?? errors.unsupportedFilter, { has: [query(name)] }));
  }
  for (const [formatValue, format] of Object.entries(list.format)) {
    for (const [orderingValue, ordering] of Object.entries(list.ordering)) {
      const conditions = [selects('format', formatValue), selects('ordering', orderingValue)];
      const has = conditions.flatMap((condition) => condition.has);
      const missing = conditions.flatMap((condition) => condition.missing);
      rewrites.push(
        rule(source, pageFile(format, ordering, String(list.page.last)), [...has, query('page', `^${escapeRegex(list.page.lastAlias)}$`)], missing),
        rule(source, pageFile(format, ordering, ':page'), [...has, query('page', `^0*(?<page>${numberRange(list.page.first, list.page.last)})$`)], missing),
        rule(source, pageFile(format, ordering, String(list.page.first)), has, [...missing, query('page')]),
      );
    }
  }
  // Format and ordering are served by now: any other page value is not a page.
  rewrites.push(errorRewrite(source, errors.invalidPage, { has: [query('page')] }));
  return rewrites;
}

function recordRewrites(map: RewriteMap, record: RewriteMap['records'][number]): VercelRewrite[] {
  const prefix = record.path.slice(0, record.path.indexOf('{id}'));
  const suffix = record.path.slice(record.path.indexOf('{id}') + '{id}'.length);
  if (suffix !== '/') throw new Error(`vercel: record paths end in "{id}/", not ${record.path}`);
  // Leading zeros are dropped (a separate parameter takes them); longer ids name no record.
  const source = `${pathSource(prefix, 'lda_prefix')}:zeros(0*):id([1-9][0-9]{0,${MAX_ID_DIGITS - 1}}|0):slash(/+)`;
  return [
    ...unservedValue(source, 'format', record.format, map.errors.notFound),
    // A file the build did not write is not found: Vercel goes on to the last rewrite, the JSON 404.
    ...Object.entries(record.format).map(([value, folder]) => {
      const { has, missing } = selects('format', value);
      return rule(source, `/${fillFile(record.file, { format: folder, id: ':id' })}`, has, missing);
    }),
  ];
}

/**
 * The error for a parameter given a value the map does not serve; when the map does not serve the
 * parameter left out (or empty, which Vercel's `has` does not count as present), that too.
 */
function unservedValue(source: string, name: string, folders: ValueFolders, answer: ErrorAnswer): VercelRewrite[] {
  const served = Object.keys(folders).filter((value) => value !== '');
  const rewrites = [
    errorRewrite(source, answer, {
      has: [query(name)],
      ...(served.length > 0 ? { missing: [query(name, `^(?:${served.map(escapeRegex).join('|')})$`)] } : {}),
    }),
  ];
  if (folders[''] === undefined) rewrites.push(errorRewrite(source, answer, { missing: [query(name)] }));
  return rewrites;
}

/** The conditions for a parameter that selects `value` (`""`: left out or empty). */
function selects(name: string, value: string): { has: QueryCondition[]; missing: QueryCondition[] } {
  return value === '' ? { has: [], missing: [query(name)] } : { has: [query(name, `^${escapeRegex(value)}$`)], missing: [] };
}

function query(key: string, value?: string): QueryCondition {
  return value === undefined ? { type: 'query', key } : { type: 'query', key, value };
}

function rule(source: string, destination: string, has: QueryCondition[], missing: QueryCondition[]): VercelRewrite {
  return { source, destination, ...(has.length > 0 ? { has } : {}), ...(missing.length > 0 ? { missing } : {}) };
}

function errorRewrite(source: string, answer: ErrorAnswer, conditions: { has?: QueryCondition[]; missing?: QueryCondition[] } = {}): VercelRewrite {
  return { ...rule(source, `/${answer.file}`, conditions.has ?? [], conditions.missing ?? []), statusCode: answer.status };
}

/**
 * A path as a path-to-regexp source in which every `/` matches a run of slashes: one parameter whose
 * pattern is the rest of the path (path-to-regexp takes the first `/` as the parameter's prefix).
 */
function pathSource(pathText: string, name: string): string {
  if (!pathText.startsWith('/')) throw new Error(`vercel: a path starts with "/": ${pathText}`);
  const rest = pathText.slice(1).split('/').map(escapeRegex).join('/+');
  return `/:${name}(/*${rest})`;
}

/**
 * A regular expression (no anchors, no capturing groups) for the whole numbers from `first` to `last`
 * written without leading zeros: numbers of each length are split into runs that share all but their
 * last digits, e.g. 1 to 40 is `[1-9]|[1-3][0-9]|40`.
 */
export function numberRange(first: number, last: number): string {
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0 || last < first) throw new Error(`no numbers from ${first} to ${last}`);
  const blocks: { head: string; from: number; to: number; free: number }[] = [];
  let start = first;
  while (start <= last) {
    // The largest block of 10^free numbers starting at `start` that fits: start..start + 10^free - 1.
    let free = 0;
    while (start % 10 ** (free + 1) === 0 && start + 10 ** (free + 1) - 1 <= last && start !== 0) free++;
    const digits = String(start);
    const head = digits.slice(0, digits.length - free - 1);
    const digit = Number(digits[digits.length - free - 1]);
    const previous = blocks.at(-1);
    // Blocks of the same size and head with consecutive digits merge into a class: 1..9 is [1-9].
    if (previous !== undefined && previous.head === head && previous.free === free && previous.to === digit - 1) {
      previous.to = digit;
    } else {
      blocks.push({ head, from: digit, to: digit, free });
    }
    start += 10 ** free;
  }
  return blocks
    .map(({ head, from, to, free }) => `${head}${from === to ? from : `[${from}-${to}]`}${free === 0 ? '' : free === 1 ? '[0-9]' : `[0-9]{${free}}`}`)
    .join('|');
}
