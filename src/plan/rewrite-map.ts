import {
  API_HEADERS,
  ALLOWED_METHODS,
  CLIENT_PATH_PREFIX,
  FORMATS,
  LIST_PATH,
  LIVE_FILTERS,
  ORDERINGS,
  PAGE_SIZE,
  REGISTRANT_PATH_PREFIX,
  type Format,
} from '../contract.ts';
import { jsonText } from '../json-text.ts';
import { lastPageFor } from './page-count.ts';
import { INDEX_FILE, parameterFolder, recordFileName } from './site-layout.ts';

/**
 * The rewrite map: one JSON file beside the site that says, as data, how any request is judged and
 * which file answers it. Each route lists its steps in the order the contract judges a request
 * (section 5: method, format, ordering, page_size, filters, page); the preview, the Cloudflare Worker
 * and the CloudFront Function run the one router over it (src/routing/), and every other host's
 * emitter translates the steps into its own syntax. Its format is documented in docs/rewrite-map.md;
 * `MAP_FORMAT` changes when it does.
 */
export const MAP_FORMAT = 'lda-clients-mirror/rewrite-map@2';
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

/** Parameters that would filter the list: the first of them (in this order) with a non-empty value is `error`. */
export interface FiltersStep {
  step: 'filters';
  rejected: string[];
  error: ErrorName;
}

/**
 * The page: absent or empty is page 1, `lastAlias` is `last`, decimal digits (leading zeros allowed)
 * from 1 to `last` name that page; anything else is `error`. Page 1 fills `{sets}` with `firstFile`,
 * page N with `otherFile`, `{n}` being N.
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
}

export interface ErrorAnswer {
  status: number;
  /** The body as a file beside the site, for hosts that can only serve files. */
  file: string;
  body: string;
  /** The body naming the request's own value: `{value}`, `{name}`, `{method}` are JSON-escaped and filled in. */
  template?: string;
  /** The same error with a fixed body for one method or parameter name, for hosts that cannot fill in a template. */
  variants?: Record<string, ErrorAnswer>;
}

export interface ErrorAnswers {
  notFound: ErrorAnswer;
  invalidPage: ErrorAnswer;
  methodNotAllowed: ErrorAnswer;
  unsupportedOrdering: ErrorAnswer;
  unsupportedPageSize: ErrorAnswer;
  unsupportedFilter: ErrorAnswer;
}

export type ErrorName = keyof ErrorAnswers;

export interface MapInput {
  baseUrl: string;
  formats: readonly Format[];
  clients: number;
  registrants: number;
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
          { step: 'filters', rejected: [...LIVE_FILTERS], error: 'unsupportedFilter' },
          {
            step: 'page',
            param: 'page',
            last: lastPageFor(input.clients),
            lastAlias: 'last',
            sets: 'page',
            firstFile: INDEX_FILE,
            otherFile: 'page={n}.json',
            error: 'invalidPage',
          },
        ],
        file: `${LIST_PATH.slice(1)}{format}{ordering}{page}`,
        missingFile: 'invalidPage',
        count: input.clients,
      },
      recordRoute('client', CLIENT_PATH_PREFIX, input.clients),
      recordRoute('registrant', REGISTRANT_PATH_PREFIX, input.registrants),
    ],
    errors: errorAnswersFor(),
  };
}

function errorAnswersFor(): ErrorAnswers {
  const supportedOrderings = ORDERINGS.filter((o) => o !== '').sort().join(', ');
  const filterAdvice = 'this mirror serves unfiltered pages only. Supported parameters: format, ordering, page.';
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
      ...detail(400, 'errors/400-filter.json', `Unsupported filter: ${filterAdvice}`, `Unsupported filter {name}="{value}": ${filterAdvice}`),
      variants: Object.fromEntries(
        LIVE_FILTERS.map((name) => [name, detail(400, `errors/400-filter-${name}.json`, `Unsupported filter ${name}: ${filterAdvice}`)]),
      ),
    },
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
