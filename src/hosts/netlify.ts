import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from './host-adapter.ts';
import { fillFile } from './route-parts.ts';

/**
 * Netlify: a `_redirects` file (rules read top to bottom, the first match wins) and a `_headers` file,
 * both written into the built folder that Netlify publishes.
 *
 * A Netlify rule can only ask that query parameters be present, each with a given value or with any
 * value (`name=:placeholder`); it cannot ask that one be absent. So the rules are nested in the
 * contract's order of precedence: every value the map serves gets its own block of rules, which handles
 * everything after it; then a placeholder rule catches the other values (the error); then the block for
 * the parameter left out. More specific rules always come first. Page numbers are passed on with a
 * placeholder (`page=:page`), so a number the build did not write is a rewrite to a file that does not
 * exist: Netlify's own 404 (see `gaps`).
 *
 * Rewrites (`200`) serve the page and record files; errors are rewrites to the map's error files with
 * the error's status (`... /errors/400-ordering.json 400`). The API rules are not forced: no file of the
 * build lies at an API path, so nothing shadows them. The last rule is a forced catch-all that answers
 * any other path, built files included, with the map's JSON 404.
 */
export const netlify: HostAdapter = {
  name: 'netlify',
  summary: "Netlify's _redirects and _headers, written into the built folder that Netlify publishes",
  files: ['_redirects', '_headers'],
  publishedWithSite: true,
  gaps: {
    pages:
      "a page past the end or not a plain number gets Netlify's own 404 page instead of `{\"detail\":\"Invalid page.\"}`, and leading zeros (`page=02`) are not read: a rule cannot compare numbers, and a rewrite to a file that does not exist ends in Netlify's 404",
    formats:
      "an unknown record id gets Netlify's own 404 page instead of `{\"detail\":\"Not found.\"}`: the rewrite's file does not exist, and Netlify does not go on to another rule",
    rejections:
      'an empty filter (`client_name=`) may be rejected like a real one: Netlify does not document whether `name=:value` matches an empty value, and ruling it out would repeat every page rule for each combination of empty filters',
    methods: "`_redirects` rules cannot test the method, and Netlify answers other methods on its files itself (a 405 without the JSON body)",
    missingSlash:
      'Netlify normalises URLs before its rules run and matches them with or without the final slash (its docs: a rule cannot add or remove a trailing slash), so `/api/v1/clients?page=2` is answered as the list, not with a 301; repeated slashes are not read as one',
    headers: "Netlify ignores a custom `Allow` header (its docs list it among the headers its servers set themselves), and its own 404 and 405 pages carry none of the map's headers",
    repeatedParameters: 'Netlify does not document which value of a repeated parameter its rules read; they are held to the first one, not the last',
  },
  emit: (target) => [
    { name: '_redirects', text: redirectsFile(target) },
    { name: '_headers', text: headersFile(target) },
  ],
};

/** A query condition: the parameter and its value; a value starting with `:` is a placeholder. */
type Condition = [name: string, value: string];

function redirectsFile({ map }: HostTarget): string {
  const errors = map.errors;
  return [
    generatedNotice(map, '#'),
    '# Rules are read top to bottom and the first that matches answers; more specific rules come first.',
    '# 200 rewrites serve the built files; errors are rewrites to the error files with their status.',
    '',
    `# The list, ${map.list.path}: format, then ordering, page_size, filters, page (contract section 5).`,
    ...listRules(map),
    '',
    '# Records: format, then the file for the id (an id the build did not write is Netlify\'s 404).',
    ...map.records.flatMap((record) => {
      const from = record.path.replace('{id}', ':id');
      const file = (folder: string) => `/${fillFile(record.file, { format: folder, id: ':id' })}`;
      return valueBlock(from, [], 'format', record.format, errors.notFound, (conditions, folder) => [rule(from, conditions, file(folder), 200)]);
    }),
    '',
    '# Anything else, built files included: the JSON 404 (forced, so an existing file does not shadow it).',
    rule('/*', [], `/${errors.notFound.file}`, errors.notFound.status, true),
    '',
  ].join('\n');
}

function listRules(map: RewriteMap): string[] {
  const list = map.list;
  const errors = map.errors;
  const from = list.path;
  const pageFile = (format: string, ordering: string, page: string) => `/${fillFile(list.file, { format, ordering, page })}`;

  return valueBlock(from, [], 'format', list.format, errors.notFound, (byFormat, format) =>
    valueBlock(from, byFormat, 'ordering', list.ordering, errors.unsupportedOrdering, (conditions, ordering) => [
      // page_size from 1 to served - 1: the mirror cannot re-paginate (any other value is ignored).
      ...range(1, list.pageSize.served - 1).map((size) => errorRule(from, [...conditions, ['page_size', String(size)]], errors.unsupportedPageSize)),
      // A filter with any value (a rule cannot tell an empty one apart: see gaps.rejections).
      ...list.rejectedFilters.map((name) =>
        errorRule(from, [...conditions, [name, ':value']], errors.unsupportedFilter.byName[name] ?? errors.unsupportedFilter),
      ),
      rule(from, [...conditions, ['page', list.page.lastAlias]], pageFile(format, ordering, String(list.page.last)), 200),
      rule(from, [...conditions, ['page', '']], pageFile(format, ordering, String(list.page.first)), 200),
      // Any other page value names its file; one the build did not write is Netlify's 404 (gaps.pages).
      rule(from, [...conditions, ['page', ':page']], pageFile(format, ordering, ':page'), 200),
      rule(from, conditions, pageFile(format, ordering, String(list.page.first)), 200),
    ]),
  );
}

/**
 * The rules for one parameter, most specific first: a block for each value the map serves (the empty
 * value included, as `name=`), then any other value (`name=:value`) answers `otherwise`, then the block
 * for the parameter left out, which the map serves as the empty value (or answers `otherwise`).
 */
function valueBlock(
  from: string,
  conditions: Condition[],
  name: string,
  folders: ValueFolders,
  otherwise: ErrorAnswer,
  block: (conditions: Condition[], folder: string) => string[],
): string[] {
  const absent = folders[''];
  for (const value of Object.keys(folders)) {
    if (value.startsWith(':')) throw new Error(`a Netlify rule would read the value ${JSON.stringify(value)} as a placeholder`);
  }
  return [
    ...Object.entries(folders).flatMap(([value, folder]) => block([...conditions, [name, value]], folder)),
    errorRule(from, [...conditions, [name, ':value']], otherwise),
    ...(absent === undefined ? [errorRule(from, conditions, otherwise)] : block(conditions, absent)),
  ];
}

function errorRule(from: string, conditions: Condition[], answer: ErrorAnswer): string {
  return rule(from, conditions, `/${answer.file}`, answer.status);
}

/** One `_redirects` line: `from [name=value ...] to status[!]`. */
function rule(from: string, conditions: Condition[], to: string, status: number, force = false): string {
  for (const [name, value] of conditions) {
    const literal = value.startsWith(':') ? '' : value;
    // The file is split on white space, `#` starts a comment and the first `=` ends the name.
    if (/[\s#=]/.test(name) || /[\s#=]/.test(literal) || name === '') {
      throw new Error(`a Netlify rule cannot hold the query parameter ${JSON.stringify(name)}=${JSON.stringify(value)}`);
    }
  }
  const query = conditions.map(([name, value]) => `${name}=${value}`);
  return [from, ...query, to, `${status}${force ? '!' : ''}`].join(' ');
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}

/** The map's headers on every path: every answer of the site is JSON. */
function headersFile({ map }: HostTarget): string {
  return [generatedNotice(map, '#'), '/*', ...Object.entries(map.headers).map(([name, value]) => `  ${name}: ${value}`), ''].join('\n');
}
