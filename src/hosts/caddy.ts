import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from './host-adapter.ts';
import { lastValuePattern, numberRangePattern, oneOfPattern, pageNumberPattern } from './query-patterns.ts';
import { DOT_SEGMENT_PATTERN, answerBody, collapsedPathPattern, fillFile, recordPathPattern } from './route-parts.ts';

/**
 * Caddy: `map` directives read the raw query the way the map says (last value, percent-encoded names
 * and values), and one `route` answers in the contract's order of precedence. Paths are matched by
 * regular expressions over the decoded path that read runs of `/` as one. Runs as is with
 * `caddy run --config <file> --adapter caddyfile`: admin endpoint and automatic HTTPS off.
 */
export const caddy: HostAdapter = {
  name: 'caddy',
  summary: 'a Caddyfile serving the built folder (caddy run --config <file> --adapter caddyfile)',
  listen: { default: '8080' },
  files: ['Caddyfile'],
  gaps: {},
  emit: (target) => [{ name: 'Caddyfile', text: caddyfile(target) }],
};

/** Prefix of the placeholders the Caddyfile defines. */
const V = 'lda_';

function caddyfile({ map, dir, listen }: HostTarget): string {
  const list = map.list;
  const errors = map.errors;
  const filters = list.rejectedFilters;
  const page = pageNumberPattern(String(list.page.last).length, `${V}p`);
  const address = listen ? `${listen.address.includes(':') && !listen.address.startsWith('[') ? `[${listen.address}]` : listen.address}:${listen.port}` : ':8080';
  const pageFile = `/${fillFile(list.file, { format: `{${V}format}`, ordering: `{${V}ordering}`, page: `{${V}page}` })}`;

  const lines = [
    generatedNotice(map, '#'),
    '{',
    '\tadmin off',
    '\tauto_https off',
    '}',
    '',
    `http://${address} {`,
    `\troot * ${quote(dir)}`,
    '',
    '\t# The last value of each query parameter the map reads, still percent-encoded ("" when absent).',
    ...['format', 'ordering', 'page', 'page_size', ...filters].flatMap((name) => [
      `\tmap {query} {${V}q_${name}} {`,
      `\t\t${quote(`~${lastValuePattern(name, 'v')}`)} "\${v}"`,
      '\t\tdefault ""',
      '\t}',
    ]),
    '\t# The query string with its "?", for redirects ({?query} came after Caddy 2.6).',
    `\tmap {query} {${V}query_suffix} {`,
    '\t\t`~^(.+)$` "?${1}"',
    '\t\tdefault ""',
    '\t}',
    '\t# format and ordering: the folder a value selects, "" when the value is not served.',
    ...valueMap(`${V}q_format`, `${V}format`, list.format),
    ...valueMap(`${V}q_ordering`, `${V}ordering`, list.ordering),
    `\t# page_size from 1 to ${list.pageSize.served - 1}: the mirror cannot re-paginate (400).`,
    `\tmap {${V}q_page_size} {${V}page_size_rejected} {`,
    `\t\t${quote(`~${numberRangePattern(1, list.pageSize.served - 1)}`)} "yes"`,
    '\t\tdefault "no"',
    '\t}',
    "\t# The first filter (in the map's order) whose last value is not empty.",
    `\tmap ${quote(filters.map((name) => `&{${V}q_${name}}`).join(''))} {${V}rejected_filter} {`,
    ...filters.map((name, index) => `\t\t${quote(`~^(?:&[^&]*){${index}}&[^&]`)} "${name}"`),
    '\t\tdefault ""',
    '\t}',
    `\t# page: absent or empty is 1, "${list.page.lastAlias}" is ${list.page.last}, else digits (a missing file is past the end).`,
    `\tmap {${V}q_page} {${V}page} {`,
    `\t\t~^$ "1"`,
    `\t\t${quote(`~${oneOfPattern([list.page.lastAlias])}`)} "${list.page.last}"`,
    `\t\t${quote(`~${page.pattern}`)} "${page.groups.map((group) => `\${${group}}`).join('')}"`,
    '\t\tdefault ""',
    '\t}',
    '',
    '\t# Every answer is JSON with the API headers, set before any handler answers.',
    ...Object.entries(map.headers).map(([name, value]) => `\theader ${name} ${quote(value)}`),
    '',
    `\t@${V}list path_regexp ${quote(`^${collapsedPathPattern(list.path)}$`)}`,
    `\t@${V}list_no_slash path_regexp ${quote(`^${collapsedPathPattern(list.path.slice(0, -1))}$`)}`,
    ...map.records.flatMap((record, index) => [
      `\t@${V}record${index} path_regexp ${V}r${index} ${quote(recordPathPattern(record.path, 'id', { collapse: true }))}`,
      `\t@${V}record${index}_no_slash path_regexp ${V}s${index} ${quote(recordPathPattern(record.path, 'digits', { slash: false, collapse: true }))}`,
    ]),
    `\t@${V}not_allowed not method ${map.methods.join(' ')}`,
    `\t@${V}bad_format vars {${V}format} ""`,
    '',
    '\t# Caddy cleans /./ and /../ out of the path it matches; the map routes the path as sent (404).',
    `\t@${V}dot_segments vars_regexp {http.request.orig_uri} ${quote(DOT_SEGMENT_PATTERN)}`,
    '',
    '\troute {',
    `\t\thandle @${V}dot_segments {`,
    ...respondIf('', errors.notFound),
    '\t\t}',
    `\t\thandle @${V}list {`,
    '\t\t\troute {',
    ...respondIf(`@${V}not_allowed`, errors.methodNotAllowed, methodBody(map)),
    ...respondIf(`@${V}bad_format`, errors.notFound),
    `\t\t\t\t@${V}bad_ordering vars {${V}ordering} ""`,
    ...respondIf(`@${V}bad_ordering`, errors.unsupportedOrdering),
    `\t\t\t\t@${V}bad_page_size vars {${V}page_size_rejected} yes`,
    ...respondIf(`@${V}bad_page_size`, errors.unsupportedPageSize),
    ...filters.flatMap((name) => [
      `\t\t\t\t@${V}filter_${name} vars {${V}rejected_filter} ${name}`,
      ...respondIf(`@${V}filter_${name}`, errors.unsupportedFilter.byName[name] ?? errors.unsupportedFilter),
    ]),
    `\t\t\t\t@${V}page_file file ${quote(pageFile)}`,
    `\t\t\t\trewrite @${V}page_file ${quote(pageFile)}`,
    `\t\t\t\tfile_server @${V}page_file`,
    ...respondIf('', errors.invalidPage),
    '\t\t\t}',
    '\t\t}',
    `\t\thandle @${V}list_no_slash {`,
    '\t\t\troute {',
    ...respondIf(`@${V}not_allowed`, errors.methodNotAllowed, methodBody(map)),
    `\t\t\t\tredir * ${quote(`${list.path}{${V}query_suffix}`)} 301`,
    '\t\t\t}',
    '\t\t}',
    ...map.records.flatMap((record, index) => {
      const file = `/${fillFile(record.file, { format: `{${V}format}`, id: `{re.${V}r${index}.id}` })}`;
      return [
        `\t\thandle @${V}record${index} {`,
        '\t\t\troute {',
        ...respondIf(`@${V}not_allowed`, errors.methodNotAllowed, methodBody(map)),
        ...respondIf(`@${V}bad_format`, errors.notFound),
        `\t\t\t\t@${V}record_file${index} file ${quote(file)}`,
        `\t\t\t\trewrite @${V}record_file${index} ${quote(file)}`,
        `\t\t\t\tfile_server @${V}record_file${index}`,
        ...respondIf('', errors.notFound),
        '\t\t\t}',
        '\t\t}',
        `\t\thandle @${V}record${index}_no_slash {`,
        '\t\t\troute {',
        ...respondIf(`@${V}not_allowed`, errors.methodNotAllowed, methodBody(map)),
        `\t\t\t\tredir * ${quote(`${record.path.slice(0, record.path.indexOf('{id}'))}{re.${V}s${index}.digits}/{${V}query_suffix}`)} 301`,
        '\t\t\t}',
        '\t\t}',
      ];
    }),
    '\t\thandle {',
    ...respondIf('', errors.notFound),
    '\t\t}',
    '\t}',
    '}',
    '',
  ];
  return lines.join('\n');
}

/** The 405 body with Caddy's `{method}` placeholder where the map's template names the method. */
function methodBody(map: RewriteMap): string {
  const answer = map.errors.methodNotAllowed;
  const escaped = { ...answer, body: escapeBraces(answer.body), template: answer.template && escapeBraces(answer.template) };
  return answerBody(escaped, { method: '{method}' });
}

function respondIf(matcher: string, answer: ErrorAnswer, body = escapeBraces(answer.body)): string[] {
  return [`\t\t\t\trespond ${matcher ? `${matcher} ` : ''}${quote(body)} ${answer.status}`];
}

function valueMap(source: string, destination: string, folders: ValueFolders): string[] {
  return [
    `\tmap {${source}} {${destination}} {`,
    ...Object.entries(folders).map(([value, folder]) => `\t\t${quote(`~${value === '' ? '^$' : oneOfPattern([value])}`)} ${quote(folder)}`),
    '\t\tdefault ""',
    '\t}',
  ];
}

/**
 * Literal braces in a body: Caddy reads `{...}` as a placeholder, and `\{` `\}` as braces. Bodies
 * passed with placeholders on purpose (the 405's `{method}`) escape their own JSON braces.
 */
function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, '\\$&');
}

/** A Caddyfile token in backquotes: no escapes inside, so the text must not hold a backquote. */
function quote(text: string): string {
  if (text.includes('`')) throw new Error(`a Caddyfile token cannot hold a backquote: ${text}`);
  return `\`${text}\``;
}
