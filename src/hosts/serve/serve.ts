import type { RewriteMap, Route, Step } from '../../plan/rewrite-map.ts';
import type { HostAdapter } from '../host-adapter.ts';
import { fillFile } from '../route-parts.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';

/** The reason most behaviours are gaps. */
const QUERY = 'serve never sees the query string: every list request gets the first page in id order';

/**
 * serve-handler reads the path alone (`url.parse(request.url).pathname`), and nothing in serve.json
 * matches a query: the only way to keep a filter from getting the unfiltered list would be to serve
 * no list at all.
 */
const FILTERED =
  'serve never sees the query string: a filtered request (`?client_state=TX`, an invalid value, two filters) gets the unfiltered first page with a 200, and no serve.json can tell it apart';

/**
 * `npx serve` (serve-handler inside) on the built folder, for a quick look without the preview.
 * serve-handler routes by the percent-decoded path alone and never sees the query string, so this is
 * the part of the map a path can express: each route's answer to a request without a query (the list's
 * first page, each record's no-format file), through `rewrites`; the map's headers on every file;
 * `404.html` holding the map's 404 body, which serve sends for any path it has no file for. Both go
 * into the built folder, where `serve` reads them (serve.json: no comment, serve rejects unknown keys).
 * See notes.md beside this file.
 */
export const serve: HostAdapter = {
  name: 'serve',
  summary: 'serve.json (and 404.html) for `npx serve` on the built folder: first pages and records only',
  files: ['serve.json', '404.html'],
  publishedWithSite: true,
  gaps: {
    orderings: QUERY,
    pages: QUERY,
    last: QUERY,
    formats: 'serve never sees the query string: `format` is ignored (lists and records answer their no-format files), and an unknown format is not a 404',
    rejections: 'serve never sees the query string: nothing is rejected with a 400',
    filters: FILTERED,
    filterSpellings: FILTERED,
    methods: 'serve answers every method as GET (no 405)',
    head: 'HEAD is GET without a body, but serve never sees the query string (HEAD ?page=9 is 200, not 404)',
    missingSlash: 'the 301 drops the query string, and repeated slashes are a 301 to the merged path instead of being read as one',
    headers: "301s carry only Location; a client that sends Accept: application/json gets serve's own JSON error for a 404",
    percentDecoding: 'paths are percent-decoded, but query strings are never read',
    repeatedParameters: QUERY,
  },
  emit: ({ map }) => [
    { name: 'serve.json', text: serveJson(map) },
    { name: '404.html', text: map.errors.notFound.body },
  ],
};

/**
 * serve.json for a map: what `npx serve <folder>` reads from the folder it serves. Alone (without
 * 404.html) it answers the list's first page and every record with the map's headers; a 404 is then
 * serve's own HTML page.
 */
export function serveJson(map: RewriteMap): string {
  return `${JSON.stringify(serveConfig(map), null, 2)}\n`;
}

interface Rewrite {
  source: string;
  destination: string;
}

/**
 * serve-handler's options (only keys serve's schema allows: it refuses any other). A `headers` entry
 * replaces the type serve-handler guesses from a file's name, so every file, 404.html included, is
 * sent with the map's Content-Type exactly. `cleanUrls` (on unless turned off) would redirect
 * `.../index` paths and look for `.html` files; `trailingSlash` makes a path missing its final `/` a
 * 301 to the path with it, as the map asks (without the query, which serve never sees).
 */
function serveConfig(map: RewriteMap): object {
  return {
    rewrites: map.routes.flatMap((route) => routeRewrite(map, route) ?? []),
    headers: [{ source: '**', headers: Object.entries(map.headers).map(([key, value]) => ({ key, value })) }],
    cleanUrls: false,
    trailingSlash: true,
    directoryListing: false,
    renderSingle: false,
  };
}

/**
 * A route as serve can take it: the request without a query. Each step, in order, says what its
 * part of the file is when the query says nothing; the file template so filled is the destination
 * (`{id}` as the source's `:id`). A route that has no file without a query (a choice without `''`)
 * gets no rewrite: serve answers its paths with 404.html.
 */
function routeRewrite(map: RewriteMap, route: Route): Rewrite | undefined {
  const parts: Record<string, string> = { id: ':id' };
  for (const step of route.steps) {
    const part = translationOf<(step: Step) => Part>('serve', route, WITHOUT_QUERY, step)(step);
    if (part === 'no file') return undefined;
    if (part !== undefined) parts[part.sets] = part.value;
  }
  return { source: sourcePattern(route.path, map.paths.idDigits), destination: `/${fillFile(route.file, parts)}` };
}

/** A step's part of the file for a request without a query; nothing to fill; or no file at all. */
type Part = { sets: string; value: string } | undefined | 'no file';

const WITHOUT_QUERY: { [K in StepKind]: (step: StepOf<K>) => Part } = {
  // serve answers every method alike (a declared gap): nothing to translate.
  method: () => undefined,
  choice: (step) => (Object.hasOwn(step.choices, '') ? { sets: step.sets, value: step.choices['']! } : 'no file'),
  // An absent page size rejects nothing; no filter in use fills the filter's part with ''.
  pageSize: () => undefined,
  filters: (step) => ({ sets: step.sets, value: '' }),
  page: (step) => ({ sets: step.sets, value: step.firstFile }),
};

/** Characters that path-to-regexp or serve-handler's glob would read as syntax in a path. */
const PATTERN_SYNTAX = /[:()*+?\\[\]{}!]/;

/**
 * A route's path as a rewrite source: a path-to-regexp pattern, matched case-insensitively against
 * the decoded path after serve-handler has resolved it (its final `/` gone, so the source has none
 * either). `{id}` is its digits, leading zeros captured apart, at most `idDigits` left; written
 * `0{0,}`, since serve-handler turns the first `*` of a source into `(.*)`.
 */
function sourcePattern(routePath: string, idDigits: number): string {
  const path = routePath.replace(/\/$/, '');
  const pieces = path.split('{id}');
  if (pieces.length > 2 || pieces.some((piece) => PATTERN_SYNTAX.test(piece))) {
    throw new Error(`serve: the route path ${routePath} cannot be written as a rewrite source`);
  }
  return pieces.join(`:zeros(0{0,}):id(\\d{1,${idDigits}})`);
}
