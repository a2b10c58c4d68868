import type { ErrorAnswer, RewriteMap, ValueFolders } from '../plan/rewrite-map.ts';
import { errorAnswers } from '../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget, type Listen } from './host-adapter.ts';
import { escapeRegex, lastValuePattern, numberRangePattern, oneOfPattern } from './query-patterns.ts';
import { answerBody, collapsedPathPattern, fillFile, recordPathPattern } from './route-parts.ts';

/**
 * Apache httpd 2.4: one site file (a `<VirtualHost>` with its `Listen`) for sites-available, routed by
 * mod_rewrite rules in the virtual host (server context, where the path they see is percent-decoded
 * and `RewriteMap ... int:unescape` is allowed) and answered with mod_headers' `Header always set`.
 *
 * The rules follow the preview's order: which route the path names (none: 404 whatever the method),
 * then the method (405), the missing slash (301), then format, ordering, page_size, filters and page.
 * mod_rewrite keeps only `$1`-`$9` and `%1`-`%9` of the last match, so each step leaves what it read in
 * an environment variable (`E=`) for the next: raw query values matched with the shared query
 * patterns, the page number decoded with `int:unescape` and captured whole.
 *
 * Errors are `R=<status>` with `E=LDA_ERROR:<the map's file>`; `ErrorDocument` sends those statuses on
 * an internal redirect whose rules serve that file, so the status, body and headers are the map's. The
 * 405 names any method: a method whose body the map writes as a file gets that file; another gets an
 * `ErrorDocument` text built from `%{REQUEST_METHOD}`, which Apache sends with an `Allow` line of its
 * own, empty (TRACE off), beside `Allow: GET`: HTTP reads the two lines as `GET`. The 301 gets an
 * empty `ErrorDocument` text: no body, like the preview.
 *
 * Needs Apache 2.4.13 or later (ErrorDocument expressions), mod_rewrite, mod_headers and mod_mime.
 */
export const apache: HostAdapter = {
  name: 'apache',
  summary: 'an Apache 2.4 site file (<VirtualHost> with mod_rewrite and mod_headers) serving the built folder',
  listen: { default: '8080' },
  files: ['lda-mirror.conf'],
  gaps: {},
  emit: (target) => [{ name: 'lda-mirror.conf', text: apacheSite(target) }],
};

/** Prefix of the environment variables and map names the rules define. */
const V = 'LDA_';
/** Where `ErrorDocument` sends an error; the rules then serve the file named in `REDIRECT_LDA_ERROR`. */
const ERROR_URL = '/lda-mirror-error';

function apacheSite({ map, dir, listen }: HostTarget): string {
  const list = map.list;
  const errors = map.errors;
  const root = fileRoot(dir);
  const address = listen ?? { address: '0.0.0.0', port: 8080 };
  const methods = map.methods;
  const byMethod = Object.entries(errors.methodNotAllowed.byMethod);
  const pageDigits = String(list.page.last).length;
  const served = errorStatuses(map);

  const lines: string[] = [
    generatedNotice(map, '#'),
    '# An Apache 2.4 site: copy it to /etc/apache2/sites-available/, then `a2enmod rewrite headers`,',
    '# `a2ensite lda-mirror` and reload. Needs mod_rewrite, mod_headers and mod_mime (for .json).',
    '# Remove the Listen line if another file (ports.conf) already listens on this address and port.',
    '',
    `Listen ${listenAddress(address)}`,
    '',
    `<VirtualHost ${virtualHostAddress(address)}>`,
    `    DocumentRoot ${quote(dir)}`,
    `    <Directory ${quote(dir)}>`,
    '        Options None',
    '        AllowOverride None',
    '        Require all granted',
    '    </Directory>',
    '',
    '    # Every answer is JSON with the API headers, errors and redirects included; no charset.',
    '    AddDefaultCharset Off',
    '    AddType application/json .json',
    ...Object.entries(map.headers).map(([name, value]) => `    Header always set ${headerName(name)} ${quote(headerValue(value))}`),
    '    # TRACE is a method like any other here (405); with it off, Apache lists no methods of its own.',
    '    TraceEnable Off',
    '    # Encoded slashes are decoded like any other character, then runs of / read as one.',
    '    AllowEncodedSlashes On',
    '',
    '    # Errors: an internal redirect to the rules below, which serve the file the map names.',
    ...served.map((status) => `    ErrorDocument ${status} ${ERROR_URL}`),
    `    # The ${errors.methodNotAllowed.status} names the method: from the map's file for these methods, else from the request.`,
    `    ErrorDocument ${errors.methodNotAllowed.status} ${quote(methodBody(map))}`,
    ...(byMethod.length > 0
      ? [
          `    <If ${quote(`%{REQUEST_METHOD} in {${byMethod.map(([method]) => `'${token(method)}'`).join(', ')}}`)}>`,
          `        ErrorDocument ${errors.methodNotAllowed.status} ${ERROR_URL}`,
          '    </If>',
        ]
      : []),
    `    # A ${map.paths.redirectMissingSlash} carries no body: an ErrorDocument text that is empty (an unset variable).`,
    `    ErrorDocument ${map.paths.redirectMissingSlash} %{reqenv:${V}NO_BODY}`,
    '',
    '    RewriteEngine On',
    `    RewriteMap ${V.toLowerCase()}unescape int:unescape`,
    '',
    "    # The ErrorDocument's internal redirect: the error file the rules chose (Apache's own errors: not found).",
    '    RewriteCond %{ENV:REDIRECT_STATUS} .',
    `    RewriteCond %{ENV:REDIRECT_${V}ERROR} ^(.+)$`,
    `    RewriteRule ^ ${rewriteArg(`${root}%1`)} [L]`,
    '    RewriteCond %{ENV:REDIRECT_STATUS} .',
    `    RewriteRule ^ ${rewriteArg(`${root}${errors.notFound.file}`)} [L]`,
    '',
    '    # Apache drops /./ and /../ segments before routing; the map reads them as part of the path.',
    `    RewriteCond %{THE_REQUEST} ${rewriteArg('^\\S+ [^?\\s]*/(?:\\.|%2[eE]){1,2}(?:[/?\\s]|$)')}`,
    `    RewriteRule ^ - ${errorFlags(errors.notFound)}`,
    '',
    "    # The route: the first that matches the decoded path (runs of / read as one). None: 404, whatever the method.",
    `    RewriteRule ${rewriteArg(`^${collapsedPathPattern(list.path)}$`)} - [E=${V}ROUTE:list]`,
    `    RewriteCond %{ENV:${V}ROUTE} ^$`,
    `    RewriteRule ${rewriteArg(`^${collapsedPathPattern(list.path.slice(0, -1))}$`)} - [E=${V}ROUTE:redirect,E=${V}LOCATION:${flagValue(list.path)}]`,
    ...map.records.flatMap((record, index) => [
      `    RewriteCond %{ENV:${V}ROUTE} ^$`,
      `    RewriteRule ${rewriteArg(recordPathPattern(record.path, 'id', { collapse: true }))} - [E=${V}ROUTE:record${index},E=${V}ID:$1]`,
      `    RewriteCond %{ENV:${V}ROUTE} ^$`,
      `    RewriteRule ${rewriteArg(recordPathPattern(record.path, 'digits', { slash: false, collapse: true }))} - [E=${V}ROUTE:redirect,E=${V}LOCATION:${flagValue(record.path.slice(0, record.path.indexOf('{id}')))}$1/]`,
    ]),
    `    RewriteCond %{ENV:${V}ROUTE} ^$`,
    `    RewriteRule ^ - ${errorFlags(errors.notFound)}`,
    '',
    `    # Methods other than ${methods.join(' and ')}: 405 (HEAD is GET without a body, which Apache does itself).`,
    ...byMethod.flatMap(([method, answer]) => [
      `    RewriteCond %{REQUEST_METHOD} =${token(method)}`,
      `    RewriteRule ^ - ${errorFlags(answer)}`,
    ]),
    `    RewriteCond %{REQUEST_METHOD} ${rewriteArg(`!^(?:${methods.map(token).map(escapeRegex).join('|')})$`)}`,
    `    RewriteRule ^ - [R=${errors.methodNotAllowed.status},L]`,
    '',
    `    # A known path without its final slash: ${map.paths.redirectMissingSlash} to the path with it, query kept as sent (NE).`,
    `    RewriteCond %{ENV:${V}ROUTE} =redirect`,
    `    RewriteRule ^ %{ENV:${V}LOCATION} [R=${map.paths.redirectMissingSlash},NE,L]`,
    '',
    '    # The last value of each query parameter the map reads, still percent-encoded ("" when absent).',
    ...['format', 'ordering', 'page_size'].flatMap((name) => [
      `    RewriteCond %{QUERY_STRING} ${rewriteArg(lastValuePattern(name))}`,
      `    RewriteRule ^ - [E=${V}Q_${name}:%1]`,
    ]),
    '    # page, percent-decoded: its digits are captured whole below (backreferences stop at %9).',
    `    RewriteCond %{QUERY_STRING} ${rewriteArg(lastValuePattern('page'))}`,
    `    RewriteRule ^ - [E=${V}Q_page:\${${V.toLowerCase()}unescape:%1}]`,
    '',
    ...map.records.flatMap((record, index) => {
      const route = `record${index}`;
      const file = `${root}${fillFile(record.file, { format: `%{ENV:${V}FORMAT}`, id: `%{ENV:${V}ID}` })}`;
      return [
        `    # ${record.path}: the format's folder ("" when not served: 404), then the file (none: 404).`,
        ...valueRules(route, `${V}Q_format`, `${V}FORMAT`, record.format),
        ...errorIf(route, [`%{ENV:${V}FORMAT} ^$`], errors.notFound),
        `    RewriteCond %{ENV:${V}ROUTE} =${route}`,
        `    RewriteCond ${rewriteArg(file)} -f`,
        `    RewriteRule ^ ${rewriteArg(file)} [L]`,
        ...errorIf(route, [], errors.notFound),
        '',
      ];
    }),
    `    # ${list.path}: in the contract's order of precedence.`,
    ...valueRules('list', `${V}Q_format`, `${V}FORMAT`, list.format),
    ...errorIf('list', [`%{ENV:${V}FORMAT} ^$`], errors.notFound),
    ...valueRules('list', `${V}Q_ordering`, `${V}ORDERING`, list.ordering),
    ...errorIf('list', [`%{ENV:${V}ORDERING} ^$`], errors.unsupportedOrdering),
    `    # page_size from 1 to ${list.pageSize.served - 1}: the mirror cannot re-paginate (400).`,
    ...errorIf('list', [`%{ENV:${V}Q_page_size} ${rewriteArg(numberRangePattern(1, list.pageSize.served - 1))}`], errors.unsupportedPageSize),
    '    # A filter whose last value is not empty, the first in the map\'s order: 400.',
    ...list.rejectedFilters.flatMap((name) =>
      errorIf('list', [`%{QUERY_STRING} ${rewriteArg(lastValuePattern(name))}`, '%1 .'], errors.unsupportedFilter.byName[name] ?? errors.unsupportedFilter),
    ),
    `    # page: absent or empty is 1, "${list.page.lastAlias}" is ${list.page.last}, else digits (a missing file is past the end).`,
    ...setIf('list', [`%{ENV:${V}Q_page} ^$`], `${V}PAGE:1`),
    ...setIf('list', [`%{ENV:${V}Q_page} =${flagValue(list.page.lastAlias)}`], `${V}PAGE:${list.page.last}`),
    ...setIf('list', [`%{ENV:${V}Q_page} ^0*([1-9][0-9]{0,${pageDigits - 1}})$`], `${V}PAGE:%1`),
    ...errorIf('list', [`%{ENV:${V}PAGE} ^$`], errors.invalidPage),
    ...(() => {
      const file = `${root}${fillFile(list.file, { format: `%{ENV:${V}FORMAT}`, ordering: `%{ENV:${V}ORDERING}`, page: `%{ENV:${V}PAGE}` })}`;
      return [`    RewriteCond %{ENV:${V}ROUTE} =list`, `    RewriteCond ${rewriteArg(file)} -f`, `    RewriteRule ^ ${rewriteArg(file)} [L]`];
    })(),
    ...errorIf('list', [], errors.invalidPage),
    '',
    `    RewriteRule ^ - ${errorFlags(errors.notFound)}`,
    '</VirtualHost>',
    '',
  ];
  return lines.join('\n');
}

/** The statuses answered through the error files (the 405 is set apart: it may name any method). */
function errorStatuses(map: RewriteMap): number[] {
  const statuses = new Set(errorAnswers(map).map((answer) => answer.status));
  statuses.delete(map.errors.methodNotAllowed.status);
  return [...statuses].sort((a, b) => a - b);
}

/** `[R=status,E=LDA_ERROR:file,L]`: the error's status now, its file on the ErrorDocument redirect. */
function errorFlags(answer: ErrorAnswer): string {
  return `[R=${answer.status},E=${V}ERROR:${flagValue(answer.file)},L]`;
}

function errorIf(route: string, conditions: string[], answer: ErrorAnswer): string[] {
  return [`    RewriteCond %{ENV:${V}ROUTE} =${route}`, ...conditions.map((c) => `    RewriteCond ${c}`), `    RewriteRule ^ - ${errorFlags(answer)}`];
}

function setIf(route: string, conditions: string[], assignment: string): string[] {
  return [`    RewriteCond %{ENV:${V}ROUTE} =${route}`, ...conditions.map((c) => `    RewriteCond ${c}`), `    RewriteRule ^ - [E=${assignment}]`];
}

/** The folder each value selects, left in `variable`; a value the map does not serve leaves it "". */
function valueRules(route: string, source: string, variable: string, folders: ValueFolders): string[] {
  return Object.entries(folders).flatMap(([value, folder]) =>
    setIf(route, [`%{ENV:${source}} ${rewriteArg(oneOfPattern([value]))}`], `${variable}:${flagValue(folder)}`),
  );
}

/**
 * The 405 body as an ErrorDocument text: the map's template with `%{REQUEST_METHOD}` for `{method}`.
 * ErrorDocument texts are string expressions, where `\`, `$` and `%` are escaped with a backslash.
 * Apache accepts only token characters in a method, so the name needs no JSON escaping.
 */
function methodBody(map: RewriteMap): string {
  const answer = map.errors.methodNotAllowed;
  const escape = (text: string) => text.replace(/[\\$%]/g, '\\$&');
  return answerBody({ ...answer, body: escape(answer.body), template: answer.template && escape(answer.template) }, { method: '%{REQUEST_METHOD}' });
}

/** The folder path as the start of a file path in the rules (they serve files by their full path). */
function fileRoot(dir: string): string {
  if (!dir.startsWith('/')) throw new Error(`apache: the built folder must be an absolute path, got ${JSON.stringify(dir)}`);
  if (/[\\"'$%\x00-\x1f\x7f]/.test(dir)) {
    throw new Error(`apache: the built folder's path cannot hold \\ " ' $ % or control characters in mod_rewrite rules: ${JSON.stringify(dir)}`);
  }
  return dir.endsWith('/') ? dir : `${dir}/`;
}

function listenAddress({ address, port }: Listen): string {
  return `${address}:${port}`;
}

/** `*` for every address (a VirtualHost names addresses it answers on; 0.0.0.0 is not one). */
function virtualHostAddress({ address, port }: Listen): string {
  return `${address === '0.0.0.0' ? '*' : address}:${port}`;
}

/**
 * A mod_rewrite argument. mod_rewrite splits its arguments on spaces and unescapes nothing but a
 * quoted argument may not hold its quote, so quote only when needed, with a quote the text lacks.
 */
function rewriteArg(text: string): string {
  if (/[\x00-\x1f\x7f]/.test(text)) throw new Error(`apache: a rewrite argument cannot hold control characters: ${JSON.stringify(text)}`);
  if (!/[\s"']/.test(text)) return text;
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  throw new Error(`apache: a rewrite argument cannot hold both quotes: ${text}`);
}

/** A value inside rewrite flags (`E=NAME:value`, `R=...`): no separators of the flag list, no expansion. */
function flagValue(text: string): string {
  if (/[\s,\]"'\\$%]/.test(text)) throw new Error(`apache: ${JSON.stringify(text)} cannot be written in rewrite flags`);
  return text;
}

/** A method name in rewrite conditions and `<If>` lists. */
function token(method: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(method)) throw new Error(`apache: unexpected method name ${JSON.stringify(method)}`);
  return method;
}

function headerName(name: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(name)) throw new Error(`apache: unexpected header name ${JSON.stringify(name)}`);
  return name;
}

/** mod_headers reads `%` as the start of a format specifier. */
function headerValue(value: string): string {
  if (value.includes('%')) throw new Error(`apache: a header value cannot hold %: ${value}`);
  return value;
}

/** A string argument of an Apache directive: double-quoted, `\` and `"` escaped. */
function quote(text: string): string {
  if (/[\x00-\x1f\x7f]/.test(text)) throw new Error(`apache: a directive argument cannot hold control characters: ${JSON.stringify(text)}`);
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}
