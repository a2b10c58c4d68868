import {
  errorVariant,
  type ChoiceStep,
  type ErrorAnswer,
  type FiltersStep,
  type MethodStep,
  type PageSizeStep,
  type PageStep,
  type RewriteMap,
  type Route,
  type Step,
} from '../../plan/rewrite-map.ts';
import type { HostAdapter, HostTarget } from '../host-adapter.ts';
import { escapeRegex } from '../query-patterns.ts';
import { fillFile } from '../route-parts.ts';
import { translationOf, type StepKind, type StepOf } from '../step-translation.ts';
import { ID, numberRange, pathPattern, splitPath } from './patterns.ts';

/**
 * Vercel: one `vercel.json`, in the built folder that Vercel deploys (notes.md beside this file).
 *
 * It holds `routes`, Vercel's ordered routing rules (a PCRE `src` over the path, `has` and `missing`
 * conditions over the query, a `dest` file and a `status`), not `rewrites`: Vercel serves a file that
 * exists at the request path before any rewrite, and it serves a folder's `index.<any extension>` as
 * the folder, so `api/v1/clients/index.json` would answer `/api/v1/clients/?page=2`. Routes run
 * before the files.
 *
 * The first route puts the map's headers on every answer but the redirects (`continue`). Then each route of the map,
 * its steps translated in the map's order: the missing slash as a 301 (query kept) after the step the
 * map names; every step that can answer an error gives its error route (an unserved format, an
 * unsupported ordering, a page_size of 1 to 24, a filter, a page that is neither a number in range nor
 * the alias), so the first step that fails answers; then one route for each combination of the values
 * the steps serve names its file; then the route's missing-file answer for a file the build did not
 * write (an id no record has). A `has` item without a value needs the parameter with a non-empty
 * value, one with a value needs it to match that regular expression, whose named groups fill the
 * destination. Errors are the map's error files with the error's status. The last route answers
 * anything else, the build's own files included, with the JSON 404. Each `/` of a path also matches a
 * run of them, so repeated slashes read as one.
 */
export const vercel: HostAdapter = {
  name: 'vercel',
  summary: 'a vercel.json (routes) for the built folder that Vercel deploys',
  files: ['vercel.json'],
  publishedWithSite: true,
  gaps: {
    methods:
      "every answer of vercel.json's routes is a file, and Vercel answers methods other than GET and HEAD on its files itself (a 405 without the JSON body)",
    headers:
      "a 301 for a missing slash is answered on its own, without the headers of the routes before it, so it carries none of the map's headers, nor do Vercel's own 405 answers",
  },
  emit: (target) => [{ name: 'vercel.json', text: `${JSON.stringify(vercelConfig(target), null, 2)}\n` }],
};

/** A `has` or `missing` item over the query string. */
export interface QueryCondition {
  type: 'query';
  key: string;
  value?: string;
}

/** One of Vercel's routes (the Build Output API's `Source` route, which vercel.json's `routes` share). */
export interface VercelRoute {
  src: string;
  dest?: string;
  headers?: Record<string, string>;
  status?: number;
  continue?: boolean;
  /** A `dest` that does not exist goes on through the routes after it, with the rewritten path. */
  check?: boolean;
  caseSensitive?: boolean;
  has?: QueryCondition[];
  missing?: QueryCondition[];
}

export interface VercelConfig {
  $schema: string;
  routes: VercelRoute[];
}

/** Requests that pass a step one way: the conditions that say so and the parts of the file they fill. */
interface Selection {
  has: QueryCondition[];
  missing: QueryCondition[];
  parts: Record<string, string>;
}

/** A step translated: its error routes, and the ways through it that fill a part of the file. */
interface Translated {
  errors: VercelRoute[];
  /** Absent: the step fills nothing (every request that passes it goes on alike). */
  selections?: Selection[];
}

type Translation<S extends Step> = (step: S, map: RewriteMap, src: string) => Translated;

/** The named group of the page number, as the destinations use it (`$n`; the path's id is `$id`). */
const NUMBER = 'n';

/** One translation for each kind of step; a kind missing here is an error at emit time. */
const TRANSLATIONS: { [K in StepKind]: Translation<StepOf<K>> } = {
  method: methodStep,
  choice: choiceStep,
  pageSize: pageSizeStep,
  filters: filtersStep,
  page: pageStep,
};

function vercelConfig({ map }: HostTarget): VercelConfig {
  const notFound = map.errors.notFound;
  return {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    routes: [
      { src: '^/.*$', headers: { ...map.headers }, continue: true },
      ...map.routes.flatMap((route) => routeRules(map, route)),
      { src: '^/.*$', dest: `/${notFound.file}`, status: notFound.status },
    ],
  };
}

/** A route's steps in order (the missing slash after the step the map names), then its files, then its missing-file answer. */
function routeRules(map: RewriteMap, route: Route): VercelRoute[] {
  const src = pathPattern(route.path, map.paths.idDigits);
  const rules: VercelRoute[] = [];
  let selections: Selection[] = [{ has: [], missing: [], parts: {} }];
  for (const step of route.steps) {
    const translated = translationOf<Translation<Step>>('vercel', route, TRANSLATIONS, step)(step, map, src);
    rules.push(...translated.errors);
    if (translated.selections !== undefined) selections = combine(selections, translated.selections);
    if (step.step === map.paths.missingSlash.after) rules.push(missingSlashRedirect(route.path, map.paths.missingSlash.status));
  }
  const files = selections.map(({ has, missing, parts }) => ({
    ...rule(src, destination(fillFile(route.file, { ...parts, id: `$${ID}` })), has, missing),
    check: true,
  }));
  return [...rules, ...files, missingFileRoute(route, selections, map.errors[route.missingFile])];
}

/** Every way through the steps so far, each continued by every way through the next step. */
function combine(before: Selection[], after: Selection[]): Selection[] {
  return before.flatMap((first) =>
    after.map((then) => ({ has: [...first.has, ...then.has], missing: [...first.missing, ...then.missing], parts: { ...first.parts, ...then.parts } })),
  );
}

/** Every answer of a route is a file, which Vercel answers only to GET and HEAD (gaps.methods): no route. */
function methodStep(_step: MethodStep): Translated {
  return { errors: [] };
}

/**
 * A value the map does not serve is the error; so is the parameter left out (or empty, which `has`
 * does not count as present) when the map does not serve the empty value. Each value served is a way
 * through, filling its part.
 */
function choiceStep(step: ChoiceStep, map: RewriteMap, src: string): Translated {
  const error = map.errors[step.error];
  const served = Object.keys(step.choices).filter((value) => value !== '');
  const errors = [
    errorRoute(src, error, {
      has: [query(step.param)],
      ...(served.length > 0 ? { missing: [query(step.param, `^(?:${served.map(escapeRegex).join('|')})$`)] } : {}),
    }),
  ];
  if (step.choices[''] === undefined) errors.push(errorRoute(src, error, { missing: [query(step.param)] }));
  const selections = Object.entries(step.choices).map(([value, part]) => ({ ...selects(step.param, value), parts: { [step.sets]: part } }));
  return { errors, selections };
}

/** A whole number from 1 to `served - 1` (leading zeros allowed) is the error; any other value is ignored. */
function pageSizeStep(step: PageSizeStep, map: RewriteMap, src: string): Translated {
  if (step.served <= 1) return { errors: [] };
  return { errors: [errorRoute(src, map.errors[step.error], { has: [query(step.param, `^0*(?:${numberRange(1, step.served - 1)})$`)] })] };
}

/** Each rejected parameter with a non-empty value (an empty one is absent to `has`) is the error naming it. */
function filtersStep(step: FiltersStep, map: RewriteMap, src: string): Translated {
  return { errors: step.rejected.map((name) => errorRoute(src, errorVariant(map.errors[step.error], name), { has: [query(name)] })) };
}

/**
 * A value that is neither the alias nor a number from 1 to the last (leading zeros allowed) is the
 * error. The ways through: the alias (the last page), the number 1 (the first page's own file), any
 * other number in range (its file, the number filled in from a named group), and the parameter left
 * out or empty (the first page).
 */
function pageStep(step: PageStep, map: RewriteMap, src: string): Translated {
  const file = (page: number | string) => (page === 1 ? step.firstFile : step.otherFile.replace('{n}', String(page)));
  const page = (value: string, part: string): Selection => ({ has: [query(step.param, value)], missing: [], parts: { [step.sets]: part } });
  const selections = [page(`^${escapeRegex(step.lastAlias)}$`, file(step.last)), page('^0*1$', file(1))];
  if (step.last >= 2) selections.push(page(`^0*(?<${NUMBER}>${numberRange(2, step.last)})$`, file(`$${NUMBER}`)));
  selections.push({ has: [], missing: [query(step.param)], parts: { [step.sets]: file(1) } });
  const pages = `^(?:${escapeRegex(step.lastAlias)}|0*(?:${numberRange(1, step.last)}))$`;
  return { errors: [errorRoute(src, map.errors[step.error], { has: [query(step.param)], missing: [query(step.param, pages)] })], selections };
}

/**
 * A file route whose destination does not exist goes on through the routes after it with the
 * rewritten path: this one, matching every file the route's file routes name, answers those with the
 * route's missing-file answer (an id no record has).
 */
function missingFileRoute(route: Route, selections: Selection[], answer: ErrorAnswer): VercelRoute {
  const choices = new Map<string, Set<string>>();
  for (const { parts } of selections) {
    for (const [name, value] of Object.entries(parts)) choices.set(name, (choices.get(name) ?? new Set()).add(value));
  }
  const pattern = route.file
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
  return errorRoute(`^/${pattern}$`, answer);
}

/** The path with its final slash, from the path without it (any number of digits for an id, as sent). */
function missingSlashRedirect(routePath: string, status: number): VercelRoute {
  const { prefix, suffix } = splitPath(routePath);
  const location = suffix === undefined ? routePath : `${prefix}$${ID}${suffix}`;
  return { src: pathPattern(routePath, 0, { slash: false }), status, headers: { Location: location }, caseSensitive: true };
}

/** A destination whose literal text cannot read as a `$name` of the route; its placeholders stand alone. */
function destination(text: string): string {
  const literal = text.replace(new RegExp(`\\$(?:${ID}|${NUMBER})(?![A-Za-z0-9])`, 'g'), '');
  if (literal.includes('$')) throw new Error(`vercel: a destination cannot hold ${JSON.stringify(text)}`);
  return `/${text}`;
}

/** The conditions for a parameter that selects `value` (`""`: left out or empty). */
function selects(name: string, value: string): { has: QueryCondition[]; missing: QueryCondition[] } {
  return value === '' ? { has: [], missing: [query(name)] } : { has: [query(name, `^${escapeRegex(value)}$`)], missing: [] };
}

function query(key: string, value?: string): QueryCondition {
  return value === undefined ? { type: 'query', key } : { type: 'query', key, value };
}

function rule(src: string, dest: string, has: QueryCondition[], missing: QueryCondition[]): VercelRoute {
  return { src, dest, caseSensitive: true, ...(has.length > 0 ? { has } : {}), ...(missing.length > 0 ? { missing } : {}) };
}

function errorRoute(src: string, answer: ErrorAnswer, conditions: { has?: QueryCondition[]; missing?: QueryCondition[] } = {}): VercelRoute {
  return { ...rule(src, `/${answer.file}`, conditions.has ?? [], conditions.missing ?? []), status: answer.status };
}
