import type { ErrorName, RewriteMap } from '../../plan/rewrite-map.ts';
import { generatedNotice, type HostAdapter, type HostTarget } from '../host-adapter.ts';
import { lastValuePattern, type ValueRule } from '../query-patterns.ts';
import { DOT_SEGMENT_PATTERN, fillFile, headersBesideContentType, identifiers, queryParameters, routePathPattern } from '../route-parts.ts';
import type { RouteContext } from '../step-translation.ts';
import type { Provided } from './rule-context.ts';
import { stepRules } from './step-rules.ts';
import { V, answer, literal, mapBlock, moved, quote } from './syntax.ts';

/**
 * nginx: the map's routes and steps translated into nginx's own syntax. Each route is a regex
 * `location` (in the map's order) whose steps, in the map's order, are `if (...) { return ... }` (the
 * one use of `if` nginx documents as safe) over variables that `map` blocks (http level) read from
 * the raw query; `try_files` then serves the file the steps named, or the answer for a missing file
 * (the route's, or the one a step names: the empty list for the first page of a filter's value). The
 * same path without its final slash is a second location: the steps up to the one the map names,
 * then the redirect. nginx matches locations on the percent-decoded path with runs of `/` merged
 * (`merge_slashes`, on by default), which is what the map asks for.
 */
export const nginx: HostAdapter = {
  name: 'nginx',
  summary: 'a server { } block (and the maps it reads) to include in the http { } block of nginx.conf',
  listen: { default: '8080' },
  files: ['lda-mirror.conf'],
  gaps: {
    filterSpellings:
      'white space and `_` in a number, and up to 16 percent-escapes in a value, are read as the preview reads them, but a number with an exponent or with digits of another script gets the 400 `Enter a number.` instead of its list, and an invalid choice is named in its 400 only when it decodes to letters, digits and `-._~+` (else the fixed body, `That choice`): nginx reads a value with regular expressions only, which cannot move a decimal point by an exponent, and no directive decodes a value of any length or escapes it for JSON',
  },
  emit: (target) => [{ name: 'lda-mirror.conf', text: nginxConfig(target) }],
};

function nginxConfig({ map, dir, listen }: HostTarget): string {
  const query = identifiers(queryParameters(map.routes), `${V}q_`);
  const routeNames = identifiers(map.routes.map((route) => route.name), V);
  const routes = map.routes.map((route) => routeRules({ map, route, name: routeNames.get(route.name)!, query }));
  const missingFiles = [...new Set(routes.flatMap((route) => route.missing))];
  const lines: string[] = [
    generatedNotice(map, '#'),
    '# Include this file in the http { } block of a stock nginx.conf.',
    '',
    ...hashSizes(routes.map((route) => route.hashEntries)),
    '# The last value of each query parameter the steps read, still percent-encoded ("" when absent).',
    ...[...query].flatMap(([name, variable]) => mapBlock('$args', variable, '', lastValueRule(name, variable))),
    ...routes.flatMap((route) => route.maps),
    'server {',
    `    listen ${listen ? `${listen.address}:${listen.port}` : '8080'};`,
    `    root ${quote(dir)};`,
    '',
    "    # Every answer has the map's type and headers: no other type, no charset, no listing.",
    '    types { }',
    `    default_type ${quote(contentType(map))};`,
    '    charset off;',
    '    autoindex off;',
    ...apiHeaders(map, '    '),
    '    # Relative Location headers: right behind any proxy or port mapping.',
    '    absolute_redirect off;',
    '',
    ...preflightRules(map),
    '    # nginx resolves /./ and /../ before matching locations; the map routes the path as sent (404).',
    `    if ($request_uri ~ ${quote(DOT_SEGMENT_PATTERN)}) {`,
    `        return ${answer(map.errors.notFound)};`,
    '    }',
    '',
    ...routes.flatMap((route) => route.locations),
    ...missingFiles.flatMap((error) => [
      `    # The file a route's steps named does not exist: ${error}.`,
      `    location @${V}${error} {`,
      `        return ${answer(map.errors[error])};`,
      '    }',
    ]),
    '    # A redirect whose body is empty JSON, not the HTML page `return 301` writes: see moved().',
    `    location @${V}moved {`,
    ...apiHeaders(map, '        '),
    '        add_header Location $uri/$is_args$args always;',
    "        return 200 '';",
    '    }',
    '    # No route: not found, whatever the method.',
    '    location / {',
    `        return ${answer(map.errors.notFound)};`,
    '    }',
    '}',
    '',
  ];
  return lines.join('\n');
}

/**
 * One route: the maps its steps read, and two locations. The path with its final slash runs every
 * step, then serves the file; the path without it runs the steps up to the one the map names, then
 * answers the redirect (as the router does, a route without that step serves the file there too).
 */
function routeRules(context: RouteContext): { maps: string[]; locations: string[]; missing: ErrorName[]; hashEntries: number } {
  const { map, route, name } = context;
  // In the map's order, each step seeing what the ones before it provide (the filter's last page).
  const earlier: Provided = {};
  const steps = route.steps.map((step) => {
    const rules = stepRules({ ...context, earlier: { ...earlier } }, step);
    Object.assign(earlier, rules.provides);
    return rules;
  });
  const parts = Object.assign({ id: `\${${name}_id}` }, ...steps.map((step) => step.parts)) as Record<string, string>;
  const unfilled = [...route.file.matchAll(/\{(\w+)\}/g)].find(([, key]) => parts[key!] === undefined);
  if (unfilled) throw new Error(`nginx: no step of route ${route.name} fills ${unfilled[0]} of ${route.file}`);
  const file = `/${fillFile(literal(route.file), parts)}`;
  // The answer when the file does not exist: the route's, unless a step names it (the page: the empty list for a first page).
  const missing = steps.find((step) => step.missing !== undefined)?.missing ?? { expression: route.missingFile, answers: [route.missingFile] };
  const serve = [`        try_files ${quote(file)} ${quote(`@${V}${missing.expression}`)};`];
  const { missingSlash, idDigits } = map.paths;
  const redirectAt = route.steps.findIndex((step) => step.step === missingSlash.after);
  const withoutSlash =
    redirectAt < 0
      ? [...steps.flatMap((step) => step.checks), ...serve]
      : [...steps.slice(0, redirectAt + 1).flatMap((step) => step.checks), ...moved(missingSlash.status)];
  return {
    maps: steps.flatMap((step) => step.maps),
    missing: missing.answers,
    hashEntries: Math.max(0, ...steps.map((step) => step.hashEntries ?? 0)),
    locations: [
      `    # ${route.name}: ${route.path}`,
      `    location ~ ${quote(routePathPattern(route.path, { idGroup: `${name}_id`, idDigits }))} {`,
      ...steps.flatMap((step) => step.checks),
      ...serve,
      '    }',
      `    # ${route.name} without its final slash: ${missingSlash.status} to the path with it, query kept, after the ${missingSlash.after} step.`,
      `    location ~ ${quote(routePathPattern(route.path, { idGroup: `${name}_digits`, idDigits, slash: false }))} {`,
      ...withoutSlash,
      '    }',
      '',
    ],
  };
}

/**
 * nginx keeps variable names and each `map`'s exact strings in hashes of fixed-size buckets, and at
 * startup warns when its default sizes cannot hold them: the filters' maps add many variables (each
 * named capture is one), and a big build's last pages make one map of thousands of entries, which
 * at 64 bytes a bucket fit one to a bucket (measured with nginx 1.22: 128-byte buckets and a hash of
 * four times the entries hold them). These directives belong to the http { } block.
 */
function hashSizes(entries: number[]): string[] {
  const mapSize = Math.max(DEFAULT_MAP_HASH_MAX, 2 ** Math.ceil(Math.log2(Math.max(1, 4 * Math.max(0, ...entries)))));
  return [
    '# Hash sizes for the variables and maps below (http level: drop a line that your nginx.conf sets too).',
    `variables_hash_bucket_size ${HASH_BUCKET};`,
    `map_hash_bucket_size ${HASH_BUCKET};`,
    `map_hash_max_size ${mapSize};`,
    '',
  ];
}

const HASH_BUCKET = 128;
const DEFAULT_MAP_HASH_MAX = 2048;

/** The rule that captures a parameter's last raw value as `$group`, into `variable`. */
function lastValueRule(name: string, variable: string): ValueRule[] {
  const group = variable.replace(`${V}q_`, `${V}v_`);
  return [{ pattern: lastValuePattern(name, group), part: `\${${group}}` }];
}

/**
 * With --cors, a preflight (`OPTIONS`) on any path is a 204 before any location is chosen (a route's
 * method step would answer 405). `return` at server level is the rewrite phase's, before locations,
 * and only a status that `error_page` turns into a named location can carry headers of its own there.
 */
function preflightRules(map: RewriteMap): string[] {
  if (map.preflight === undefined) return [];
  return [
    '    # --cors: a preflight on any path answers 204 with what a page may do, before any route.',
    `    error_page 419 = @${V}preflight;`,
    '    if ($request_method = OPTIONS) {',
    '        return 419;',
    '    }',
    `    location @${V}preflight {`,
    ...Object.entries(map.preflight.headers).map(([name, value]) => `        add_header ${name} ${quote(literal(value))} always;`),
    `        return ${map.preflight.status};`,
    '    }',
    '',
  ];
}

/** The map's headers but Content-Type (which `default_type` gives), on every status. */
function apiHeaders(map: RewriteMap, indent: string): string[] {
  return headersBesideContentType(map).map(([name, value]) => `${indent}add_header ${name} ${quote(literal(value))} always;`);
}

function contentType(map: RewriteMap): string {
  const type = Object.entries(map.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (type === undefined) throw new Error('nginx: the map names no Content-Type header');
  return literal(type);
}
