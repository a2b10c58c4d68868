import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from './host-adapter.ts';
import { lastValuePattern, numberRangePattern, oneOfPattern, pageNumberPattern } from './query-patterns.ts';
import { DOT_SEGMENT_PATTERN, answerBody, fillFile, headersBesideContentType, recordPathPattern } from './route-parts.ts';

/**
 * nginx: `map` blocks (http level) read the query the way the map says, and one `server { }` block
 * answers in the contract's order of precedence with `if (...) { return ... }` (the one use of `if`
 * nginx documents as safe) and `try_files` for the pages and records. Paths: nginx matches locations
 * on the percent-decoded path with runs of `/` merged (`merge_slashes`, on by default), which is what
 * the map asks for.
 */
export const nginx: HostAdapter = {
  name: 'nginx',
  summary: 'a server { } block (and the maps it reads) to include in the http { } block of nginx.conf',
  listen: { default: '8080' },
  files: ['lda-mirror.conf'],
  gaps: {},
  emit: (target) => [{ name: 'lda-mirror.conf', text: nginxConfig(target) }],
};

/** Prefix of every variable the configuration defines, so it sits beside other servers' maps. */
const V = 'lda_';

function nginxConfig({ map, dir, listen }: HostTarget): string {
  const list = map.list;
  const errors = map.errors;
  const pageDigits = String(list.page.last).length;
  const page = pageNumberPattern(pageDigits, `${V}p`);
  const filters = list.rejectedFilters;
  const lines: string[] = [
    generatedNotice(map, '#'),
    '# Include this file in the http { } block of a stock nginx.conf (one that includes mime.types).',
    '',
    '# The last value of each query parameter the map reads, still percent-encoded ("" when absent).',
    ...['format', 'ordering', 'page', 'page_size', ...filters].flatMap((name) => [
      `map $args $${V}q_${name} {`,
      `    ${quote(`~${lastValuePattern(name, `${V}v_${name}`)}`)} $${V}v_${name};`,
      '    default "";',
      '}',
    ]),
    '',
    '# format and ordering: the folder a value selects, "" when the value is not served.',
    ...valueMap(`${V}q_format`, `${V}format`, list.format),
    ...valueMap(`${V}q_ordering`, `${V}ordering`, list.ordering),
    '',
    `# page_size from 1 to ${list.pageSize.served - 1}: the mirror cannot re-paginate (400).`,
    `map $${V}q_page_size $${V}page_size_rejected {`,
    `    ${quote(`~${numberRangePattern(1, list.pageSize.served - 1)}`)} 1;`,
    '    default "";',
    '}',
    '',
    '# The first filter (in the map\'s order) whose last value is not empty: 400.',
    `map ${quote(filters.map((name) => `&$${V}q_${name}`).join(''))} $${V}rejected_filter {`,
    ...filters.map((name, index) => `    ${quote(`~^(?:&[^&]*){${index}}&[^&]`)} ${name};`),
    '    default "";',
    '}',
    '',
    `# page: absent or empty is 1, "${list.page.lastAlias}" is ${list.page.last}, else digits (a missing file is past the end).`,
    `map $${V}q_page $${V}page {`,
    '    "" 1;',
    `    ${quote(`~${oneOfPattern([list.page.lastAlias])}`)} ${list.page.last};`,
    `    ${quote(`~${page.pattern}`)} ${quote(page.groups.map((group) => `$${group}`).join(''))};`,
    '    default "";',
    '}',
    '',
    'server {',
    `    listen ${listen ? `${listen.address}:${listen.port}` : '8080'};`,
    `    root ${quote(dir)};`,
    '',
    '    # Every answer is JSON with the API headers; no other type, no charset, no listing.',
    '    types { application/json json; }',
    '    default_type application/json;',
    '    charset off;',
    '    autoindex off;',
    ...apiHeaders(map, '    '),
    '    # Relative Location headers: right behind any proxy or port mapping.',
    '    absolute_redirect off;',
    '',
    '    # nginx resolves /./ and /../ before matching locations; the map routes the path as sent (404).',
    `    if ($request_uri ~ ${quote(DOT_SEGMENT_PATTERN)}) {`,
    `        return ${errors.notFound.status} ${quote(errors.notFound.body)};`,
    '    }',
    '',
    `    location = ${list.path} {`,
    ...methodCheck(map),
    ...returnIf(`$${V}format = ""`, errors.notFound),
    ...returnIf(`$${V}ordering = ""`, errors.unsupportedOrdering),
    ...returnIf(`$${V}page_size_rejected`, errors.unsupportedPageSize),
    ...filters.map((name) => returnIf(`$${V}rejected_filter = ${name}`, errors.unsupportedFilter.byName[name] ?? errors.unsupportedFilter)).flat(),
    ...returnIf(`$${V}page = ""`, errors.invalidPage),
    `        try_files /${fillFile(list.file, { format: `$${V}format`, ordering: `$${V}ordering`, page: `$${V}page` })} @${V}invalid_page;`,
    '    }',
    '',
    '    # The list without its final slash: 301 to the path with it, query kept.',
    `    location = ${list.path.slice(0, -1)} {`,
    ...methodCheck(map),
    ...moved(),
    '    }',
    '',
    ...map.records.flatMap((record, index) => [
      `    location ~ ${quote(recordPathPattern(record.path, `${V}id${index}`))} {`,
      ...methodCheck(map),
      ...returnIf(`$${V}format = ""`, errors.notFound),
      `        try_files /${fillFile(record.file, { format: `$${V}format`, id: `$${V}id${index}` })} @${V}not_found;`,
      '    }',
      `    location ~ ${quote(recordPathPattern(record.path, `${V}id${index}`, { slash: false }))} {`,
      ...methodCheck(map),
      ...moved(),
      '    }',
    ]),
    '',
    `    location @${V}invalid_page {`,
    `        return ${errors.invalidPage.status} ${quote(errors.invalidPage.body)};`,
    '    }',
    '    # A 301 whose body is empty JSON, not the HTML page `return 301` writes: see moved().',
    `    location @${V}moved {`,
    ...apiHeaders(map, '        '),
    '        add_header Location $uri/$is_args$args always;',
    "        return 200 '';",
    '    }',
    `    location @${V}not_found {`,
    `        return ${errors.notFound.status} ${quote(errors.notFound.body)};`,
    '    }',
    '    location / {',
    `        return ${errors.notFound.status} ${quote(errors.notFound.body)};`,
    '    }',
    '}',
    '',
  ];
  return lines.join('\n');
}

/**
 * The 405 for methods the map does not answer. It sits in each API location, after path matching,
 * because an unknown path is a 404 whatever the method. nginx accepts only methods made of capital
 * letters, `_` and `-`, so the name is safe inside the JSON text.
 */
function methodCheck(map: RewriteMap): string[] {
  const body = answerBody(map.errors.methodNotAllowed, { method: '$request_method' });
  return returnIf(`$request_method !~ ^(?:${map.methods.join('|')})$`, { ...map.errors.methodNotAllowed, body });
}

/** The map's headers but Content-Type (which `types` and `default_type` give), on every status. */
function apiHeaders(map: RewriteMap, indent: string): string[] {
  return headersBesideContentType(map).map(([name, value]) => `${indent}add_header ${name} ${quote(value)} always;`);
}

/**
 * The 301 to the path with its final slash (the path as nginx normalised it, query kept). `return 301`
 * always sends nginx's HTML page, so the location returns an unused status (418) that `error_page`
 * turns into a 301 answered by @moved: empty body, JSON type, API headers, a relative Location.
 */
function moved(): string[] {
  return [`        error_page 418 =301 @${V}moved;`, '        return 418;'];
}

function returnIf(condition: string, answer: ErrorAnswer): string[] {
  return [`        if (${condition}) {`, `            return ${answer.status} ${quote(answer.body)};`, '        }'];
}

function valueMap(source: string, variable: string, folders: ValueFolders): string[] {
  return [
    `map $${source} $${variable} {`,
    ...Object.entries(folders).map(([value, folder]) =>
      value === '' ? `    "" ${quote(folder)};` : `    ${quote(`~${oneOfPattern([value])}`)} ${quote(folder)};`,
    ),
    '    default "";',
    '}',
  ];
}

/**
 * An nginx string: single-quoted, with `\` and `'` escaped. nginx has no escape for `$` (it always
 * starts a variable), so text from the map must not hold one; variables are passed in on purpose.
 */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
