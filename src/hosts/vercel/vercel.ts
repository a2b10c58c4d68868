import type { PageStep, RewriteMap, Route, Step } from '../../plan/rewrite-map.ts';
import type { HostAdapter, HostTarget } from '../host-adapter.ts';
import { escapeRegex } from '../query-patterns.ts';
import { fillFile } from '../route-parts.ts';
import { translationOf } from '../step-translation.ts';
import { ID, pathPattern, splitPath } from './patterns.ts';
import { TRANSLATIONS, errorRoute, query, rule, type QueryCondition, type Selection, type Translated, type VercelRoute } from './step-routes.ts';

export type { QueryCondition, VercelRoute } from './step-routes.ts';

/**
 * Vercel: one `vercel.json`, in the built folder that Vercel deploys (notes.md beside this file).
 *
 * It holds `routes`, Vercel's ordered routing rules (a PCRE `src` over the path, `has` and `missing`
 * conditions over the query, a `dest` file and a `status`), not `rewrites`: Vercel serves a file that
 * exists at the request path before any rewrite, and it serves a folder's `index.<any extension>` as
 * the folder, so `api/v1/clients/index.json` would answer `/api/v1/clients/?page=2`. Routes run
 * before the files.
 *
 * The first route puts the map's headers on every answer but the redirects (`continue`). Then each
 * route of the map, its steps translated in the map's order (step-routes.ts): the missing slash as a
 * 301 (query kept) after the step the map names; every step that can answer an error gives its error
 * routes, so the first step that fails answers; then one route for each way through the steps names
 * its file; then the answers for a file the build did not write (a filter's value that no client
 * has, a page past a filtered list's end, an id no record has). Errors are the map's error files with
 * the error's status. The last route answers anything else, the build's own files included, with the
 * JSON 404. Each `/` of a path also matches a run of them, so repeated slashes read as one.
 */
export const vercel: HostAdapter = {
  name: 'vercel',
  summary: 'a vercel.json (routes) for the built folder that Vercel deploys',
  files: ['vercel.json'],
  publishedWithSite: true,
  gaps: {
    filters:
      "an invalid choice (`client_state=tx`) gets the filter's 400 with a fixed body (`That choice is not one of the available choices.`), not the body that names the value: a route answers with a file, and no file holds every value",
    filterSpellings:
      'a route copies a part of the value into a file name but cannot compute with it: white space around a number is read as the preview reads it, but a number written with an exponent, `_` or non-ASCII digits gets the 400 `Enter a number.` instead of its list, and an invalid choice beyond letters and digits the fixed body',
    methods:
      "every answer of vercel.json's routes is a file, and Vercel answers methods other than GET and HEAD on its files itself (a 405 without the JSON body)",
    headers:
      "a 301 for a missing slash is answered on its own, without the headers of the routes before it, so it carries none of the map's headers, nor do Vercel's own 405 answers",
  },
  emit: (target) => [{ name: 'vercel.json', text: `${JSON.stringify(vercelConfig(target), null, 2)}\n` }],
};

export interface VercelConfig {
  $schema: string;
  routes: VercelRoute[];
}

/**
 * Vercel's limit of routes per deployment ("Routes created per Deployment", vercel.com/docs/limits:
 * 2,048 on Hobby and Pro, more only on Enterprise). A longer file would not deploy, so emit stops.
 */
export const ROUTE_LIMIT = 2048;

function vercelConfig({ map }: HostTarget): VercelConfig {
  const notFound = map.errors.notFound;
  const routes = [
    { src: '^/.*$', headers: { ...map.headers }, continue: true },
    ...map.routes.flatMap((route) => routeRules(map, route)),
    { src: '^/.*$', dest: `/${notFound.file}`, status: notFound.status },
  ];
  if (routes.length > ROUTE_LIMIT) {
    throw new Error(
      `vercel: this build needs ${routes.length.toLocaleString('en-US')} routes, more than the ${ROUTE_LIMIT.toLocaleString('en-US')} Vercel deploys (vercel.com/docs/limits); build with fewer --filters or --formats`,
    );
  }
  return { $schema: 'https://openapi.vercel.sh/vercel.json', routes };
}

/** A route's steps in order (the missing slash after the step the map names), then its files, then its missing-file answers. */
function routeRules(map: RewriteMap, route: Route): VercelRoute[] {
  const src = pathPattern(route.path, map.paths.idDigits);
  const rules: VercelRoute[] = [];
  let selections: Selection[] = [{ has: [], missing: [], parts: {} }];
  for (const step of route.steps) {
    const translated = translationOf<Translation>('vercel', route, TRANSLATIONS, step)(step, map, src, selections);
    rules.push(...translated.errors);
    selections = translated.selections;
    if (step.step === map.paths.missingSlash.after) rules.push(missingSlashRedirect(route.path, map.paths.missingSlash.status));
  }
  const files = selections.map(({ has, missing, parts }) => ({
    ...rule(src, destination(fillFile(route.file, { ...parts, id: `$${ID}` }), src, has), has, missing),
    check: true,
  }));
  return [...rules, ...files, ...missingFileRoutes(map, route, selections)];
}

type Translation = (step: Step, map: RewriteMap, src: string, before: Selection[]) => Translated;

/**
 * A file route whose destination does not exist goes on through the routes after it with the
 * rewritten path. These answer it: a filter's first page (a value that no client has) with the page
 * step's `firstMissing` answer, the empty list, for a request that names that filter; any other file
 * the route's file routes name with the route's missing-file answer (a page past a filtered list's
 * end, an id no record has).
 */
function missingFileRoutes(map: RewriteMap, route: Route, selections: Selection[]): VercelRoute[] {
  const page = route.steps.find((step): step is PageStep => step.step === 'page');
  const filters = [...new Set(selections.flatMap((selection) => selection.filter?.param ?? []))];
  const firstPages = page === undefined ? [] : filters.map((param) => {
    const files = selections.filter((selection) => selection.filter?.param === param && selection.parts[page.sets] === page.firstFile);
    return errorRoute(`^/${filePattern(route.file, files)}$`, map.errors[page.firstMissing], { has: [query(param)] });
  });
  return [...firstPages, errorRoute(`^/${filePattern(route.file, selections)}$`, map.errors[route.missingFile])];
}

/** Every file the selections name, as a regular expression: each part any of its values, a `$name` any segment. */
function filePattern(file: string, selections: Selection[]): string {
  const choices = new Map<string, Set<string>>();
  for (const { parts } of selections) {
    for (const [name, value] of Object.entries(parts)) choices.set(name, (choices.get(name) ?? new Set()).add(value));
  }
  return file
    .split(/(\{\w+\})/)
    .map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1];
      if (name === undefined) return escapeRegex(piece);
      if (name === ID) return '[0-9]+';
      const values = [...(choices.get(name) ?? [])];
      const alternatives = values.filter((value) => value !== '').map((value) => value.split(/\$[A-Za-z0-9]+/).map(escapeRegex).join('[^/]+'));
      return `(?:${alternatives.join('|')})${values.includes('') ? '?' : ''}`;
    })
    .join('');
}

/** The path with its final slash, from the path without it (any number of digits for an id, as sent). */
function missingSlashRedirect(routePath: string, status: number): VercelRoute {
  const { prefix, suffix } = splitPath(routePath);
  const location = suffix === undefined ? routePath : `${prefix}$${ID}${suffix}`;
  return { src: pathPattern(routePath, 0, { slash: false }), status, headers: { Location: location }, caseSensitive: true };
}

/**
 * A destination whose `$name`s are all named groups of its route (`src` or a `has` value), none
 * followed by a letter or digit that would read as part of the name; any other `$` is refused.
 */
function destination(text: string, src: string, has: QueryCondition[]): string {
  const names = [src, ...has.map((item) => item.value ?? '')].flatMap((pattern) => [...pattern.matchAll(/\(\?<([A-Za-z][A-Za-z0-9]*)>/g)].map((match) => match[1]!));
  const literal = names.reduce((rest, name) => rest.replace(new RegExp(`\\$${name}(?![A-Za-z0-9])`, 'g'), ''), text);
  if (literal.includes('$')) throw new Error(`vercel: a destination cannot hold ${JSON.stringify(text)}`);
  return `/${text}`;
}
