import {
  API_HEADERS,
  ALLOWED_METHODS,
  CLIENT_PATH_PREFIX,
  FILTERS,
  FORMATS,
  LIST_PATH,
  LIVE_FILTERS,
  ORDERINGS,
  UNANSWERABLE_FILTERS,
  PAGE_SIZE,
  REGISTRANT_PATH_PREFIX,
  type FilterName,
  type Format,
} from '../contract.ts';
import { jsonText } from '../json-text.ts';
import { lastPageFor } from './page-count.ts';
import { EMPTY_LIST_FILE, INDEX_FILE, parameterFolder, recordFileName } from './site-layout.ts';

/**
 * The rewrite map: one JSON file beside the site that says, as data, how any request is judged and
 * which file answers it. Each route lists its steps in the order the contract judges a request
 * (section 5: method, format, ordering, page_size, filters, page); the preview, the Cloudflare Worker
 * and the CloudFront Function run the one router over it (src/routing/), and every other host's
 * emitter translates the steps into its own syntax. Its format is documented in docs/rewrite-map.md;
 * `MAP_FORMAT` changes when it does.
 */
export const MAP_FORMAT = 'lda-clients-mirror/rewrite-map@3';
export const MAP_FILE = 'rewrite-map.json';

export interface RewriteMap {
  format: typeof MAP_FORMAT;
  baseUrl: string;
  /** Sent with every API answer, errors and redirects included. */
  headers: Record<string, string>;
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
}

export type ErrorName = keyof ErrorAnswers;

export interface MapInput {
  baseUrl: string;
  formats: readonly Format[];
  clients: number;
  registrants: number;
  /** The filters built, in a fixed order: a choice filter's accepted values, and the last page of each value that has more than one. */
  filters: readonly FilterInput[];
}

export interface FilterInput {
  name: FilterName;
  /** The values a choice filter accepts; undefined for a number filter. */
  choices: readonly string[] | undefined;
  lastPages: Record<string, number>;
}

/** Methods whose 405 body is also written as a file, for hosts that cannot fill in a template. */
const COMMON_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Longest id looked up as a file: longer digit strings cannot name a record (and would make long paths). */
export const MAX_ID_DIGITS = 16;

export function createRewriteMap(input: MapInput): RewriteMap {
  const formats = FORMATS.filter((format) => input.formats.includes(format));
  const method: MethodStep = { step: 'method', allowed: [...ALLOWED_METHODS], error: 'methodNotAllowed' };
  const recordFormat: ChoiceStep = {
    step: 'choice',
    param: 'format',
    choices: Object.fromEntries(formats.map((format) => [format, recordFileName(format)])),
    sets: 'format',
    error: 'notFound',
  };
  const recordRoute = (name: string, prefix: string, count: number): Route => ({
    name,
    path: `${prefix}{id}/`,
    steps: [method, recordFormat],
    file: `${prefix.slice(1)}{id}/{format}`,
    missingFile: 'notFound',
    count,
  });
  return {
    format: MAP_FORMAT,
    baseUrl: input.baseUrl,
    headers: { ...API_HEADERS },
    paths: { collapseSlashes: true, missingSlash: { status: 301, after: 'method' }, idDigits: MAX_ID_DIGITS },
    routes: [
      {
        name: 'list',
        path: LIST_PATH,
        steps: [
          method,
          { step: 'choice', param: 'format', choices: folderChoices('format', formats), sets: 'format', error: 'notFound' },
          { step: 'choice', param: 'ordering', choices: folderChoices('ordering', ORDERINGS), sets: 'ordering', error: 'unsupportedOrdering' },
          { step: 'pageSize', param: 'page_size', served: PAGE_SIZE, error: 'unsupportedPageSize' },
          {
            step: 'filters',
            served: input.filters.map(servedFilter),
            rejected: LIVE_FILTERS.filter((name) => !input.filters.some((filter) => filter.name === name)),
            error: 'unsupportedFilter',
            combinedError: 'combinedFilters',
            sets: 'filter',
          },
          {
            step: 'page',
            param: 'page',
            last: lastPageFor(input.clients),
            lastAlias: 'last',
            sets: 'page',
            firstFile: INDEX_FILE,
            otherFile: 'page={n}.json',
            error: 'invalidPage',
            firstMissing: 'emptyList',
          },
        ],
        file: `${LIST_PATH.slice(1)}{filter}{format}{ordering}{page}`,
        missingFile: 'invalidPage',
        count: input.clients,
      },
      recordRoute('client', CLIENT_PATH_PREFIX, input.clients),
      recordRoute('registrant', REGISTRANT_PATH_PREFIX, input.registrants),
    ],
    errors: errorAnswersFor(input.filters.map((filter) => filter.name)),
  };
}

function servedFilter({ name, choices, lastPages }: FilterInput): ServedFilter {
  return {
    param: name,
    values: choices === undefined ? 'number' : 'choice',
    ...(choices === undefined ? {} : { choices: [...choices] }),
    folder: parameterFolder(name, '{value}'),
    error: choices === undefined ? 'invalidNumber' : 'invalidChoice',
    lastPages,
  };
}

function errorAnswersFor(served: readonly FilterName[]): ErrorAnswers {
  const supportedOrderings = ORDERINGS.filter((o) => o !== '').sort().join(', ');
  const builtAdvice =
    served.length === 0 ? 'this mirror was built without filters' : `this mirror answers one filter at a time, of ${served.join(', ')}`;
  const adviceFor = (name: string): string =>
    UNANSWERABLE_FILTERS[name] ??
    `this mirror was built without it (${builtAdvice}); build it with --filters ${[...served, name].join(',')}`;
  const pairs = served.flatMap((first, at) => served.slice(at + 1).map((second) => [first, second] as const));
  const choiceFilters = served.filter((name) => FILTERS[name].values !== 'number');
  const numberFilters = served.filter((name) => FILTERS[name].values === 'number');
  return {
    notFound: detail(404, 'errors/404-not-found.json', 'Not found.'),
    invalidPage: detail(404, 'errors/404-invalid-page.json', 'Invalid page.'),
    methodNotAllowed: {
      ...detail(405, 'errors/405.json', 'Method not allowed.', 'Method "{method}" not allowed.'),
      variants: Object.fromEntries(
        COMMON_METHODS.map((method) => [method, detail(405, `errors/405-${method}.json`, `Method "${method}" not allowed.`)]),
      ),
    },
    unsupportedOrdering: detail(
      400,
      'errors/400-ordering.json',
      `Unsupported ordering. Supported: ${supportedOrderings}.`,
      `Unsupported ordering "{value}". Supported: ${supportedOrderings}.`,
    ),
    unsupportedPageSize: detail(
      400,
      'errors/400-page_size.json',
      `Unsupported page_size: this mirror serves ${PAGE_SIZE} clients a page. Use ${PAGE_SIZE} or more, or leave page_size out.`,
      `Unsupported page_size "{value}": this mirror serves ${PAGE_SIZE} clients a page. Use ${PAGE_SIZE} or more, or leave page_size out.`,
    ),
    unsupportedFilter: {
      ...detail(400, 'errors/400-filter.json', `Unsupported filter: ${builtAdvice}.`, `Unsupported filter {name}="{value}": ${builtAdvice}.`),
      variants: Object.fromEntries(
        LIVE_FILTERS.filter((name) => !served.includes(name as FilterName)).map((name) => [
          name,
          detail(400, `errors/400-filter-${name}.json`, `Unsupported filter ${name}: ${adviceFor(name)}.`, `Unsupported filter ${name}="{value}": ${adviceFor(name)}.`),
        ]),
      ),
    },
    combinedFilters: {
      ...detail(400, 'errors/400-filters.json', 'Filters cannot be combined: this mirror answers one filter at a time.', 'Filters {name} cannot be combined: this mirror answers one filter at a time.'),
      variants: Object.fromEntries(
        pairs.map(([first, second]) => [
          `${first}&${second}`,
          detail(400, `errors/400-filters-${first}-${second}.json`, `Filters ${first} and ${second} cannot be combined: this mirror answers one filter at a time.`),
        ]),
      ),
    },
    // The live service's own bodies (django-filter's form errors), keyed by the parameter's name.
    invalidChoice: {
      status: 400,
      file: 'errors/400-choice.json',
      body: jsonText({ detail: 'Select a valid choice. That choice is not one of the available choices.' }),
      template: '{"{name}":["Select a valid choice. {value} is not one of the available choices."]}',
      echo: 'whole',
      variants: Object.fromEntries(
        choiceFilters.map((name) => [
          name,
          { status: 400, file: `errors/400-choice-${name}.json`, body: jsonText({ [name]: ['Select a valid choice. That choice is not one of the available choices.'] }) },
        ]),
      ),
    },
    invalidNumber: {
      status: 400,
      file: 'errors/400-number.json',
      body: jsonText({ detail: 'Enter a number.' }),
      template: '{"{name}":["Enter a number."]}',
      variants: Object.fromEntries(
        numberFilters.map((name) => [name, { status: 400, file: `errors/400-number-${name}.json`, body: jsonText({ [name]: ['Enter a number.'] }) }]),
      ),
    },
    emptyList: { status: 200, file: EMPTY_LIST_FILE, body: jsonText({ count: 0, next: null, previous: null, results: [] }) },
  };
}

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

/** The routes of single records (`{id}` in the path). */
export function recordRoutes(map: RewriteMap): Route[] {
  return map.routes.filter((route) => route.path.includes('{id}'));
}

/** The list route's filters step (none in a map built without a list). */
export function filtersStep(route: Route): FiltersStep | undefined {
  return route.steps.find((step): step is FiltersStep => step.step === 'filters');
}

/** A route's choice step for `param`, if it has one. */
export function choiceStep(route: Route, param: string): ChoiceStep | undefined {
  return route.steps.find((step): step is ChoiceStep => step.step === 'choice' && step.param === param);
}

function folderChoices(name: string, values: readonly string[]): Record<string, string> {
  return Object.fromEntries(values.map((value) => [value, parameterFolder(name, value)]));
}

function detail(status: number, file: string, text: string, template?: string): ErrorAnswer {
  const answer: ErrorAnswer = { status, file, body: jsonText({ detail: text }) };
  // Templates keep their placeholders unescaped; everything around them is JSON text already.
  if (template !== undefined) answer.template = jsonText({ detail: template });
  return answer;
}
