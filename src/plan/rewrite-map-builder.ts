import {
  ALLOWED_METHODS,
  CLIENT_PATH_PREFIX,
  DEFAULT_CACHE_CONTROL,
  FORMATS,
  LIST_PATH,
  LIVE_FILTERS,
  MAX_ID_DIGITS,
  ORDERINGS,
  PAGE_SIZE,
  REGISTRANT_FILTERS,
  REGISTRANT_PATH_PREFIX,
  type FilterName,
  type Format,
  type HttpSettings,
} from '../contract.ts';
import { errorAnswersFor } from './error-answers.ts';
import { answerHeaders, preflightAnswer } from './http-headers.ts';
import { lastPageFor } from './page-count.ts';
import { MAP_FORMAT, type ChoiceStep, type MethodStep, type PageStep, type RewriteMap, type Route, type ServedFilter } from './rewrite-map.ts';
import { INDEX_FILE, parameterFolder, recordFileName } from './site-layout.ts';

export interface MapInput {
  baseUrl: string;
  /** Cache-Control and CORS (default: the default Cache-Control, no CORS). */
  http?: HttpSettings;
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

/**
 * The rewrite map of a site: its routes and their steps, in the order the contract judges a request,
 * and the error answers of the filters built.
 */
export function createRewriteMap(input: MapInput): RewriteMap {
  const formats = FORMATS.filter((format) => input.formats.includes(format));
  const http = input.http ?? { cacheControl: DEFAULT_CACHE_CONTROL };
  const preflight = preflightAnswer(http);
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
    headers: answerHeaders(http),
    ...(preflight === undefined ? {} : { preflight }),
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
            served: input.filters.map(servedFilterFor),
            rejected: LIVE_FILTERS.filter((name) => !input.filters.some((filter) => filter.name === name)),
            error: 'unsupportedFilter',
            combinedError: 'combinedFilters',
            sets: 'filter',
          },
          pageStep(input.clients),
        ],
        file: `${LIST_PATH.slice(1)}{filter}{format}{ordering}{page}`,
        missingFile: 'invalidPage',
        count: input.clients,
      },
      recordRoute('client', CLIENT_PATH_PREFIX, input.clients),
      recordRoute('registrant', REGISTRANT_PATH_PREFIX, input.registrants),
      registrantsRoute(method, formats, input.registrants),
    ],
    errors: errorAnswersFor(input.filters.map((filter) => filter.name)),
  };
}

/**
 * The registrants list where only files are served (contract section 10): the unfiltered list in
 * ascending id, every page and format; an ordering, a page_size from 1 to 24 or a filter is a 400.
 */
function registrantsRoute(method: MethodStep, formats: readonly Format[], registrants: number): Route {
  return {
    name: 'registrants',
    path: REGISTRANT_PATH_PREFIX,
    steps: [
      method,
      { step: 'choice', param: 'format', choices: folderChoices('format', formats), sets: 'format', error: 'notFound' },
      { step: 'choice', param: 'ordering', choices: folderChoices('ordering', ['']), sets: 'ordering', error: 'registrantOrdering' },
      { step: 'pageSize', param: 'page_size', served: PAGE_SIZE, error: 'unsupportedPageSize' },
      { step: 'filters', served: [], rejected: [...REGISTRANT_FILTERS], error: 'registrantFilter', combinedError: 'combinedFilters', sets: 'filter' },
      pageStep(registrants),
    ],
    file: `${REGISTRANT_PATH_PREFIX.slice(1)}{filter}{format}{ordering}{page}`,
    missingFile: 'invalidPage',
    count: registrants,
  };
}

/** The page step of a list of `count` records (contract section 3's spellings). */
function pageStep(count: number): PageStep {
  return { step: 'page', param: 'page', last: lastPageFor(count), lastAlias: 'last', sets: 'page', firstFile: INDEX_FILE, otherFile: 'page={n}.json', error: 'invalidPage', firstMissing: 'emptyList' };
}

function servedFilterFor({ name, choices, lastPages }: FilterInput): ServedFilter {
  return {
    param: name,
    values: choices === undefined ? 'number' : 'choice',
    ...(choices === undefined ? {} : { choices: [...choices] }),
    folder: parameterFolder(name, '{value}'),
    error: choices === undefined ? 'invalidNumber' : 'invalidChoice',
    lastPages,
  };
}

function folderChoices(name: string, values: readonly string[]): Record<string, string> {
  return Object.fromEntries(values.map((value) => [value, parameterFolder(name, value)]));
}
