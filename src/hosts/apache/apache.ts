import { errorAnswers, filtersStep, type ErrorAnswer, type RewriteMap } from '../../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from '../host-adapter.ts';
import { answerBody } from '../route-parts.ts';
import { fillVariable } from './filter-rules.ts';
import { methodNamingAnswers, routeRules } from './route-rules.ts';
import { errorFlags, FILL, UNESCAPE_MAP, V } from './rule-context.ts';
import { expressionText, fileRoot, headerName, headerValue, listenAddress, quote, rewriteArg, token, virtualHostAddress } from './syntax.ts';
import { MACHINE_MAPS, machineRules } from './value-machine.ts';

/**
 * Apache httpd 2.4: one site file (a `<VirtualHost>` with its `Listen`) for sites-available, routed by
 * mod_rewrite rules in the virtual host (server context, where the path they see is percent-decoded
 * and `RewriteMap ... int:unescape` is allowed) and answered with mod_headers' `Header always set`.
 * The rules translate the map's routes and their steps (./route-rules.ts).
 *
 * Errors are `R=<status>` with `E=LDA_ERROR:<the map's file>`; `ErrorDocument` sends those statuses on
 * an internal redirect whose rules serve that file, so the status, body and headers are the map's. The
 * 405 names any method: a method whose body the map writes as a file gets that file; another gets an
 * `ErrorDocument` text built from `%{REQUEST_METHOD}`, which Apache sends with an `Allow` line of its
 * own, empty (TRACE off), beside `Allow: GET`: HTTP reads the two lines as `GET`. The 301 gets an
 * empty `ErrorDocument` text: no body, like the preview. An answer that echoes the request's value
 * (an invalid choice) is filled in by an `ErrorDocument` text in an `<If>` (see `filledAnswers`).
 *
 * Needs Apache 2.4.13 or later (ErrorDocument expressions), mod_rewrite, mod_headers, mod_alias and
 * mod_mime.
 */
export const apache: HostAdapter = {
  name: 'apache',
  summary: 'an Apache 2.4 site file (<VirtualHost> with mod_rewrite and mod_headers) serving the built folder',
  listen: { default: '8080' },
  files: ['lda-mirror.conf'],
  gaps: {},
  emit: (target) => [{ name: 'lda-mirror.conf', text: apacheSite(target) }],
};

/** Where `ErrorDocument` sends an error; the rules then serve the file named in `REDIRECT_LDA_ERROR`. */
const ERROR_URL = '/lda-mirror-error';

function apacheSite({ map, dir, listen }: HostTarget): string {
  const root = fileRoot(dir);
  const address = listen ?? { address: '0.0.0.0', port: 8080 };
  const lines: string[] = [
    generatedNotice(map, '#'),
    '# An Apache 2.4 site: copy it to /etc/apache2/sites-available/, then `a2enmod rewrite headers alias`,',
    '# `a2ensite lda-mirror` and reload. Needs mod_rewrite, mod_headers, mod_alias and mod_mime (for .json).',
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
    ...answerHeaders(map),
    '    # TRACE is a method like any other here (405); with it off, Apache lists no methods of its own.',
    '    TraceEnable Off',
    '    # Encoded slashes are decoded like any other character, then runs of / read as one.',
    '    AllowEncodedSlashes On',
    '',
    ...errorDocuments(map),
    '',
    '    RewriteEngine On',
    `    RewriteMap ${UNESCAPE_MAP} int:unescape`,
    ...Object.entries(MACHINE_MAPS).map(([name, internal]) => `    RewriteMap ${name} int:${internal}`),
    '',
    ...preflightRule(map),
    "    # The ErrorDocument's internal redirect: the error file the rules chose (Apache's own errors: not found).",
    '    RewriteCond %{ENV:REDIRECT_STATUS} .',
    `    RewriteCond %{ENV:REDIRECT_${V}ERROR} ^(.+)$`,
    `    RewriteRule ^ ${rewriteArg(`${root}%1`)} [L]`,
    '    RewriteCond %{ENV:REDIRECT_STATUS} .',
    `    RewriteRule ^ ${rewriteArg(`${root}${map.errors.notFound.file}`)} [L]`,
    '',
    '    # Apache drops /./ and /../ segments before routing; the map reads them as part of the path (no route).',
    `    RewriteCond %{THE_REQUEST} ${rewriteArg('^\\S+ [^?\\s]*(?:/|%2[fF])(?:\\.|%2[eE]){1,2}(?:/|%2[fF]|[?\\s]|$)')}`,
    `    RewriteRule ^ - ${errorFlags(map.errors.notFound)}`,
    '',
    ...valueMachine(map),
    ...routeRules(map, root),
    '</VirtualHost>',
    '',
  ];
  return lines.join('\n');
}

/** Tests the method in a `Header` condition. */
const IS_PREFLIGHT = "%{REQUEST_METHOD} == 'OPTIONS'";

/**
 * The map's headers on every answer. With --cors, a preflight gets its own headers instead, and
 * only them: each set is conditioned on the method (every `OPTIONS` is then a preflight).
 */
function answerHeaders(map: RewriteMap): string[] {
  const set = (headers: Record<string, string>, condition?: string) =>
    Object.entries(headers).map(
      ([name, value]) => `    Header always set ${headerName(name)} ${quote(headerValue(value))}${condition === undefined ? '' : ` ${quote(`expr=${condition}`)}`}`,
    );
  if (map.preflight === undefined) return set(map.headers);
  return [
    ...set(map.headers, `!(${IS_PREFLIGHT})`),
    '    # --cors: a preflight (OPTIONS, a 204 from the rules) carries what a page may do, and nothing else.',
    ...set(map.preflight.headers, IS_PREFLIGHT),
  ];
}

/**
 * With --cors, `OPTIONS` on any path is the preflight's 204, before any route (a route's method step
 * would answer 405). Apache sends a 204 from `R=` without a body or an ErrorDocument.
 */
function preflightRule(map: RewriteMap): string[] {
  if (map.preflight === undefined) return [];
  return [
    '    # --cors: a preflight on any path answers 204 with what a page may do, before any route.',
    '    RewriteCond %{REQUEST_METHOD} =OPTIONS',
    `    RewriteRule ^ - [R=${map.preflight.status},L]`,
    '',
  ];
}

/** The machine that reads filter values beyond one pattern (./value-machine.ts), first so that its rounds are short. */
function valueMachine(map: RewriteMap): string[] {
  const served = map.routes.flatMap((route) => filtersStep(route)?.served ?? []);
  const rules = machineRules(UNESCAPE_MAP, {
    echo: served.some((filter) => filter.values === 'choice' && map.errors[filter.error].echo === 'whole'),
    numbers: served.some((filter) => filter.values === 'number'),
    idDigits: map.paths.idDigits,
  });
  return rules.length === 0 ? [] : [...rules, ''];
}

/**
 * Every error status of the map goes to the rules through `ERROR_URL`, but the status of an answer
 * that names the method: a text built from `%{REQUEST_METHOD}`, or the map's file for the methods it
 * writes one for. The missing-slash redirect gets an empty text (an unset variable): no body.
 */
function errorDocuments(map: RewriteMap): string[] {
  const naming = methodNamingAnswers(map);
  const namingStatuses = new Set(naming.map((answer) => answer.status));
  for (const answer of Object.values(map.errors)) {
    if (namingStatuses.has(answer.status) && !naming.includes(answer)) {
      throw new Error(`apache: status ${answer.status} answers both a method and another error; one ErrorDocument cannot tell them apart`);
    }
  }
  if (namingStatuses.size < naming.length) throw new Error('apache: two method errors share a status; one ErrorDocument cannot tell them apart');
  const statuses = [...new Set(errorAnswers(map).map((answer) => answer.status))].filter((status) => !namingStatuses.has(status));
  const { status: redirect } = map.paths.missingSlash;
  return [
    '    # Errors: an internal redirect to the rules below, which serve the file the map names.',
    ...statuses.sort((a, b) => a - b).map((status) => `    ErrorDocument ${status} ${ERROR_URL}`),
    ...naming.flatMap((answer) => {
      const filed = Object.keys(answer.variants ?? {}).map(token);
      return [
        `    # The ${answer.status} names the method: from the map's file for ${filed.length > 0 ? filed.join(', ') : 'no method'}, else from the request.`,
        `    ErrorDocument ${answer.status} ${quote(methodBody(answer))}`,
        ...(filed.length > 0
          ? [
              `    <If ${quote(`%{REQUEST_METHOD} in {${filed.map((method) => `'${method}'`).join(', ')}}`)}>`,
              `        ErrorDocument ${answer.status} ${ERROR_URL}`,
              '    </If>',
            ]
          : []),
      ];
    }),
    `    # A ${redirect} carries no body: an ErrorDocument text that is empty (an unset variable).`,
    `    ErrorDocument ${redirect} %{reqenv:${V}NO_BODY}`,
    '    # Its Location keeps the query as sent, but mod_rewrite drops an empty one (a `?` alone): put it back.',
    `    Header always edit Location ^([^?]*)$ $1? ${quote('expr=%{THE_REQUEST} =~ m#^\\S+ [^?\\s]*\\?\\s#')}`,
    ...filledAnswers(map),
  ];
}

/**
 * The answers whose body names the request's value exactly (`echo: 'whole'`, the live service's own
 * bodies): the rules leave the answer's name and values in `LDA_FILL*` and map the request to a file
 * instead of failing it (./filter-rules.ts), so that the request reaches this `<If>`, which Apache
 * evaluates again after the rules. It sets the status's `ErrorDocument` to the template filled from
 * those variables and answers the status (mod_alias's `Redirect <status>`, in the fixups).
 */
function filledAnswers(map: RewriteMap): string[] {
  return Object.entries(map.errors).flatMap(([name, answer]) => {
    if (answer.echo !== 'whole' || answer.template === undefined) return [];
    if (answer.status < 400) throw new Error(`apache: ${name} is a ${answer.status}; only an error can be filled in by an ErrorDocument`);
    const escaped = { ...answer, template: expressionText(answer.template) };
    const body = answerBody(escaped, { name: `%{reqenv:${fillVariable('name')}}`, value: `%{reqenv:${fillVariable('value')}}` });
    return [
      `    # ${name}: its template filled from the request (the rules set ${FILL}).`,
      `    <If ${quote(`%{reqenv:${FILL}} == '${name}'`)}>`,
      `        ErrorDocument ${answer.status} ${quote(body)}`,
      `        Redirect ${answer.status}`,
      '    </If>',
    ];
  });
}

/**
 * The answer's body as an ErrorDocument text: its template with `%{REQUEST_METHOD}` for `{method}`.
 * Apache accepts only token characters in a method, so the name needs no JSON escaping.
 */
function methodBody(answer: ErrorAnswer): string {
  const escaped = { ...answer, body: expressionText(answer.body), template: answer.template && expressionText(answer.template) };
  return answerBody(escaped, { method: '%{REQUEST_METHOD}' });
}
