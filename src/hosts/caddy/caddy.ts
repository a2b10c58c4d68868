import { generatedNotice, type HostAdapter, type HostTarget, type Listen } from '../host-adapter.ts';
import { lastValuePattern } from '../query-patterns.ts';
import { DOT_SEGMENT_PATTERN, fillFile, identifiers, queryParameters, routePathPattern } from '../route-parts.ts';
import type { RouteContext } from '../step-translation.ts';
import { stepRules } from './step-rules.ts';
import { QUERY_SUFFIX, V, escapeBraces, mapBlock, quote, respond } from './syntax.ts';

/**
 * Caddy: the map's routes and steps translated into a Caddyfile. `map` directives read the raw query
 * (last value, percent-encoded names and values) into placeholders; each route is a `handle` (in the
 * map's order) whose steps, in the map's order, are `respond` on `vars` matchers over those
 * placeholders, then the file the steps named or the route's missing file (filters: `./filter-rules.ts`;
 * pages, `last` and the empty list: `./page-rules.ts`). The same path without its final slash is a
 * second `handle`: the steps up to the one the map names, then the redirect. Paths are matched by
 * regular expressions over the decoded path that read runs of `/` as one. Runs as is with
 * `caddy run --config <file> --adapter caddyfile`: admin endpoint and automatic HTTPS off. Written for
 * Caddy 2.6 (Debian 12's) and later.
 */
export const caddy: HostAdapter = {
  name: 'caddy',
  summary: 'a Caddyfile serving the built folder (caddy run --config <file> --adapter caddyfile)',
  listen: { default: '8080' },
  files: ['Caddyfile'],
  gaps: {
    filterSpellings:
      'white space, `_` and percent-encoding in a number are read as the preview reads them, but a number with an exponent or with digits of another script gets the 400 `Enter a number.` instead of its list; an invalid value is named in its 400 only when it is letters and digits, or is given once and needs no JSON escape (with a quote, a backslash, a control character or a line separator the body says `That choice` instead): a regular expression cannot compare an exponent with a count of digits, and a `map` output only repeats captured text, so it cannot turn `٧` into `7` nor escape a quote',
  },
  emit: (target) => [{ name: 'Caddyfile', text: caddyfile(target) }],
};

function caddyfile({ map, dir, listen }: HostTarget): string {
  const query = identifiers(queryParameters(map.routes), `${V}q_`);
  const routeNames = identifiers(map.routes.map((route) => route.name), V);
  const routes = map.routes.map((route) => routeRules({ map, route, name: routeNames.get(route.name)!, query }));
  const lines = [
    generatedNotice(map, '#'),
    '{',
    '\tadmin off',
    '\tauto_https off',
    '}',
    '',
    `http://${siteAddress(listen)} {`,
    `\troot * ${quote(dir)}`,
    '',
    '\t# The last value of each query parameter the steps read, still percent-encoded ("" when absent).',
    ...[...query].flatMap(([name, placeholder]) => mapBlock('{query}', [placeholder], [''], [{ pattern: lastValuePattern(name, 'v'), outputs: ['${v}'] }])),
    '\t# The query string with its "?", for redirects.',
    ...mapBlock('{query}', [QUERY_SUFFIX], [''], [{ pattern: '^(.+)$', outputs: ['?${1}'] }]),
    ...routes.flatMap((route) => route.maps),
    "\t# Every answer has the map's headers, set before any handler answers.",
    ...Object.entries(map.headers).map(([name, value]) => `\theader ${name} ${quote(escapeBraces(value))}`),
    '',
    ...routes.flatMap((route) => route.matchers),
    '\t# Caddy cleans /./ and /../ out of the path it matches; the map routes the path as sent (404).',
    `\t@${V}dot_segments vars_regexp {http.request.orig_uri} ${quote(DOT_SEGMENT_PATTERN)}`,
    '',
    ...(map.preflight === undefined ? [] : [`\t@${V}preflight method OPTIONS`, '']),
    '\troute {',
    ...preflightHandler(map),
    `\t\thandle @${V}dot_segments {`,
    `\t\t\t${respond('', map.errors.notFound)}`,
    '\t\t}',
    ...routes.flatMap((route) => route.handlers),
    '\t\t# No route: not found, whatever the method.',
    '\t\thandle {',
    `\t\t\t${respond('', map.errors.notFound)}`,
    '\t\t}',
    '\t}',
    '}',
    '',
  ];
  return lines.join('\n');
}

/** With --cors, a preflight (`OPTIONS`) on any path answers 204, first in the route (a route's method step would answer 405). */
function preflightHandler(map: HostTarget['map']): string[] {
  if (map.preflight === undefined) return [];
  return [
    '\t\t# --cors: a preflight on any path answers 204 with what a page may do, before any route.',
    `\t\thandle @${V}preflight {`,
    // Only the preflight's headers: the answers' others, set above for every request, are taken off.
    ...Object.keys(map.headers)
      .filter((name) => !Object.hasOwn(map.preflight!.headers, name))
      .map((name) => `\t\t\theader -${name}`),
    ...Object.entries(map.preflight.headers).map(([name, value]) => `\t\t\theader ${name} ${quote(escapeBraces(value))}`),
    `\t\t\trespond ${map.preflight.status}`,
    '\t\t}',
  ];
}

/**
 * One route: the maps and matchers its steps read, and two handlers. The path with its final slash
 * runs every step, then serves the file; the path without it runs the steps up to the one the map
 * names, then answers the redirect (as the router does, a route without that step serves the file there too).
 */
function routeRules(context: RouteContext): { maps: string[]; matchers: string[]; handlers: string[] } {
  const { map, route, name } = context;
  const idDigits = map.paths.idDigits;
  const steps = route.steps.map((step) => stepRules(context, step));
  const parts = Object.assign({ id: `{re.${name}.id}` }, ...steps.map((step) => step.parts)) as Record<string, string>;
  const unfilled = [...route.file.matchAll(/\{(\w+)\}/g)].find(([, key]) => parts[key!] === undefined);
  if (unfilled) throw new Error(`caddy: no step of route ${route.name} fills ${unfilled[0]} of ${route.file}`);
  const file = `/${fillFile(escapeBraces(route.file).replace(/\\\{(\w+)\\\}/g, '{$1}'), parts)}`;
  const serve = [
    `\t\t\t\trewrite @${name}_file ${quote(file)}`,
    `\t\t\t\tfile_server @${name}_file`,
    // No such file: a step's own answer first (the page step's for a first page), else the route's.
    ...steps.flatMap((step) => step.missing ?? []),
    `\t\t\t\t${respond('', map.errors[route.missingFile])}`,
  ];
  const { missingSlash } = map.paths;
  const redirectAt = route.steps.findIndex((step) => step.step === missingSlash.after);
  const location = `${escapeBraces(route.path).replace('\\{id\\}', `{re.${name}_no_slash.id}`)}{${QUERY_SUFFIX}}`;
  const withoutSlash =
    redirectAt < 0
      ? [...steps.flatMap((step) => step.checks), ...serve]
      : [...steps.slice(0, redirectAt + 1).flatMap((step) => step.checks), `\t\t\t\tredir * ${quote(location)} ${missingSlash.status}`];
  return {
    maps: steps.flatMap((step) => step.maps),
    matchers: [
      `\t# ${route.name}: ${route.path}, and the same path without its final slash.`,
      `\t@${name} path_regexp ${name} ${quote(routePathPattern(route.path, { idGroup: 'id', idDigits, collapse: true }))}`,
      `\t@${name}_no_slash path_regexp ${name}_no_slash ${quote(routePathPattern(route.path, { idGroup: 'id', idDigits, slash: false, collapse: true }))}`,
      ...steps.flatMap((step) => step.matchers),
      `\t@${name}_file file ${quote(file)}`,
      '',
    ],
    handlers: [
      `\t\t# ${route.name}: ${route.path}`,
      `\t\thandle @${name} {`,
      '\t\t\troute {',
      ...steps.flatMap((step) => step.checks),
      ...serve,
      '\t\t\t}',
      '\t\t}',
      `\t\t# ${route.name} without its final slash: ${missingSlash.status} to the path with it, query kept, after the ${missingSlash.after} step.`,
      `\t\thandle @${name}_no_slash {`,
      '\t\t\troute {',
      ...withoutSlash,
      '\t\t\t}',
      '\t\t}',
    ],
  };
}

function siteAddress(listen: Listen | undefined): string {
  if (listen === undefined) return ':8080';
  const host = listen.address.includes(':') && !listen.address.startsWith('[') ? `[${listen.address}]` : listen.address;
  return `${host}:${listen.port}`;
}
