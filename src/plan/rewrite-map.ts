/**
 * The rewrite map: one JSON file beside the site that says, as data, how any request is judged and
 * which file answers it. Each route lists its steps in the order the contract judges a request
 * (section 5: method, format, ordering, page_size, filters, page); the preview, the Cloudflare Worker
 * and the CloudFront Function run the one router over it (src/routing/), and every other host's
 * emitter translates the steps into its own syntax. Its format is documented in docs/rewrite-map.md;
 * `MAP_FORMAT` changes when it does. This file holds its shape and the accessors that hosts read;
 * `createRewriteMap` (rewrite-map-builder.ts) makes it, and error-answers.ts writes its error texts.
 */
import type { Preflight } from '../contract.ts';

export const MAP_FORMAT = 'lda-clients-mirror/rewrite-map@3';
export const MAP_FILE = 'rewrite-map.json';

export interface RewriteMap {
  format: typeof MAP_FORMAT;
  baseUrl: string;
  /** Sent with every API answer, errors and redirects included: the contract's, Cache-Control, the CORS origin (http-headers.ts). */
  headers: Record<string, string>;
  /** With `--cors`: the answer to `OPTIONS` on any path, before any route is matched. Without it, `OPTIONS` is the method step's 405. */
  preflight?: Preflight;
  paths: PathRules;
  /** Matched in order against the decoded path; a path no route matches is `errors.notFound`. */
  routes: Route[];
  errors: ErrorAnswers;
}

export interface PathRules {
  /** Paths are percent-decoded, then runs of `/` read as one, before they are matched. */
  collapseSlashes: true;
  /** A route's path missing its final `/` is this redirect (query kept), answered right after the step named. */
  missingSlash: { status: 301; after: 'method' };
  /** `{id}` in a route's path: decimal digits, leading zeros dropped, at most this many left (more: no route). */
  idDigits: number;
}

export interface Route {
  name: string;
  /** `{id}` stands for a record's id. */
  path: string;
  /** The ordered steps that judge a request on this path: each answers an error or fills a part of `file`. */
  steps: Step[];
  /** The answering file, relative to the built folder; `{part}`s are filled by the steps and `{id}` by the path. */
  file: string;
  /** The answer when the file does not exist: a page past the end, an id that no record has. */
  missingFile: ErrorName;
  /** Records (clients or registrants) behind the route, for the summary and the host notes. */
  count: number;
}

export type Step = MethodStep | ChoiceStep | PageSizeStep | FiltersStep | PageStep;

/** Methods answered; any other is `error` (HEAD is GET without a body). */
export interface MethodStep {
  step: 'method';
  allowed: string[];
  error: ErrorName;
}

/** A parameter whose value (absent and empty alike: `""`) fills `{sets}` of the file; any other value is `error`. */
export interface ChoiceStep {
  step: 'choice';
  param: string;
  choices: Record<string, string>;
  sets: string;
  error: ErrorName;
}

/** A whole number from 1 to `served - 1` is `error` (the mirror cannot re-paginate); anything else is ignored. */
export interface PageSizeStep {
  step: 'pageSize';
  param: string;
  served: number;
  error: ErrorName;
}

/**
 * The filters (contract section 8), judged in this order: a parameter of `rejected` with a non-empty
 * value is `error` (the variant of its name); two or more of `served` with non-empty values are
 * `combinedError` (the variant of the first two names, joined by `&`); the one left reads its value
 * (its own error when the value is invalid) and fills `{sets}` with its `folder`. No filter in use
 * fills `{sets}` with `''`. An empty value is no filter, as on the live service.
 */
export interface FiltersStep {
  step: 'filters';
  served: ServedFilter[];
  rejected: string[];
  error: ErrorName;
  combinedError: ErrorName;
  sets: string;
}

/**
 * One filter whose lists were built. Its value is read by `values`:
 * - `choice`: exactly one of `choices` (case matters), which is its canonical form;
 * - `number`: as Python's Decimal reads it, cut toward zero to an integer, canonical in decimal digits
 *   without sign or leading zeros (`007`, `+7`, `7.9`, `0.7e1` are `7`); an integer of more than
 *   `paths.idDigits` digits names no list (the empty list).
 * Anything else is `error`. `folder` with `{value}` the canonical value is the folder of that value's
 * lists; `lastPages` holds the last page of each value whose lists have more than one page (any other
 * value: 1), which the page step uses for `last` and its range. A valid value that no client has has
 * no folder: its first page is the page step's `firstMissing` answer.
 */
export interface ServedFilter {
  param: string;
  values: 'choice' | 'number';
  choices?: string[];
  folder: string;
  error: ErrorName;
  lastPages: Record<string, number>;
}

/**
 * The page: absent or empty is page 1, `lastAlias` is `last`, decimal digits (leading zeros allowed)
 * from 1 to `last` name that page; anything else is `error`. `last` is the unfiltered list's; a filter
 * in use gives its own (`ServedFilter.lastPages`). Page 1 fills `{sets}` with `firstFile`, page N with
 * `otherFile`, `{n}` being N. A filtered list's first page whose file does not exist (a filter's value
 * that no client has) is `firstMissing`, the empty list; any other missing page is the route's
 * `missingFile` (the unfiltered list's first page always exists).
 */
export interface PageStep {
  step: 'page';
  param: string;
  last: number;
  lastAlias: string;
  sets: string;
  firstFile: string;
  otherFile: string;
  error: ErrorName;
  firstMissing: ErrorName;
}

/** A fixed answer: an error, or (`emptyList`, status 200) the list of a filter's value that no client has. */
export interface ErrorAnswer {
  status: number;
  /** The body as a file beside the site, for hosts that can only serve files. */
  file: string;
  body: string;
  /**
   * The body naming the request's own value: `{value}`, `{name}`, `{method}` are JSON-escaped and
   * filled in; a long `{value}` is cut short, unless `echo` is `whole` (the live service's own bodies).
   */
  template?: string;
  echo?: 'whole';
  /**
   * The same error for one method or parameter name (or two names joined by `&`): its own template,
   * or a fixed body for hosts that cannot fill in a template.
   */
  variants?: Record<string, ErrorAnswer>;
}

export interface ErrorAnswers {
  notFound: ErrorAnswer;
  invalidPage: ErrorAnswer;
  methodNotAllowed: ErrorAnswer;
  unsupportedOrdering: ErrorAnswer;
  unsupportedPageSize: ErrorAnswer;
  unsupportedFilter: ErrorAnswer;
  combinedFilters: ErrorAnswer;
  invalidChoice: ErrorAnswer;
  invalidNumber: ErrorAnswer;
  emptyList: ErrorAnswer;
  /** The registrants list where only files are served (contract section 10): ascending id, unfiltered, 25 a page. */
  registrantOrdering: ErrorAnswer;
  registrantFilter: ErrorAnswer;
}

export type ErrorName = keyof ErrorAnswers;

/** The error as a host that cannot fill in a template answers it for one method or parameter name. */
export function errorVariant(answer: ErrorAnswer, key: string): ErrorAnswer {
  return answer.variants?.[key] ?? answer;
}

/** Every error answer of the map with its variants, for writing their files. */
export function errorAnswers(map: RewriteMap): ErrorAnswer[] {
  return Object.values(map.errors).flatMap((answer) => [answer, ...Object.values(answer.variants ?? {})]);
}

/** The route that serves the list, the one with a `page` step. */
export function listRoute(map: RewriteMap): Route & { page: PageStep } {
  for (const route of map.routes) {
    const page = route.steps.find((step): step is PageStep => step.step === 'page');
    if (page !== undefined) return { ...route, page };
  }
  throw new Error('the rewrite map has no list route (a route with a page step)');
}

/** The registrants list's route (contract section 10), if the map has one. */
export function registrantsRoute(map: RewriteMap): (Route & { page: PageStep }) | undefined {
  const route = map.routes.find((candidate) => candidate.name === 'registrants');
  const page = route?.steps.find((step): step is PageStep => step.step === 'page');
  return route === undefined || page === undefined ? undefined : { ...route, page };
}

/** The routes of single records (`{id}` in the path). */
export function recordRoutes(map: RewriteMap): Route[] {
  return map.routes.filter((route) => route.path.includes('{id}'));
}

/** The list route's filters step (none in a map built without a list). */
export function filtersStep(route: Route): FiltersStep | undefined {
  return route.steps.find((step): step is FiltersStep => step.step === 'filters');
}

/** The list route's served filter named `param`: one the map does not serve is an error, not an empty list. */
export function servedFilter(map: RewriteMap, param: string): ServedFilter {
  const filter = (filtersStep(listRoute(map))?.served ?? []).find((served) => served.param === param);
  if (filter === undefined) throw new Error(`the map serves no filter ${param}`);
  return filter;
}

/** A route's choice step for `param`, if it has one. */
export function choiceStep(route: Route, param: string): ChoiceStep | undefined {
  return route.steps.find((step): step is ChoiceStep => step.step === 'choice' && step.param === param);
}
