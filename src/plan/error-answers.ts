import { FILTERS, LIVE_FILTERS, ORDERINGS, PAGE_SIZE, REGISTRANT_FILTERS, UNANSWERABLE_FILTERS, type FilterName } from '../contract.ts';
import { jsonText } from '../json-text.ts';
import type { ErrorAnswer, ErrorAnswers } from './rewrite-map.ts';
import { EMPTY_LIST_FILE } from './site-layout.ts';

/** Where the registrants list answers every filter and ordering (contract section 10). */
const CODE_ADVICE = 'A host of it that runs code answers every one.';

/** Methods whose 405 body is also written as a file, for hosts that cannot fill in a template. */
const COMMON_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The map's error answers, their texts and files, for a mirror built with the filters `served`: the
 * advice in each names what this mirror answers and how to build one that answers more.
 */
export function errorAnswersFor(served: readonly FilterName[]): ErrorAnswers {
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
      `Unsupported page_size: this mirror serves ${PAGE_SIZE} a page. Use ${PAGE_SIZE} or more, or leave page_size out.`,
      `Unsupported page_size "{value}": this mirror serves ${PAGE_SIZE} a page. Use ${PAGE_SIZE} or more, or leave page_size out.`,
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
    // Short templates: the CloudFront Function reads the map from its store on every request (notes.md there).
    registrantOrdering: detail(
      400,
      'errors/400-registrants-ordering.json',
      `Unsupported ordering: this mirror lists the registrants by ascending id only. ${CODE_ADVICE}`,
      'Unsupported ordering "{value}": registrants are listed by id only.',
    ),
    registrantFilter: {
      ...detail(400, 'errors/400-registrants-filter.json', `Unsupported filter: this mirror lists the registrants unfiltered. ${CODE_ADVICE}`, 'Unsupported filter {name}="{value}": registrants are listed unfiltered.'),
      variants: Object.fromEntries(
        REGISTRANT_FILTERS.map((name) => [
          name,
          // A fixed body only, for hosts that cannot fill in the template: the others fill in the answer's.
          detail(400, `errors/400-registrants-filter-${name}.json`, `Unsupported filter ${name}: this mirror lists the registrants unfiltered. ${CODE_ADVICE}`),
        ]),
      ),
    },
  };
}

function detail(status: number, file: string, text: string, template?: string): ErrorAnswer {
  const answer: ErrorAnswer = { status, file, body: jsonText({ detail: text }) };
  // Templates keep their placeholders unescaped; everything around them is JSON text already.
  if (template !== undefined) answer.template = jsonText({ detail: template });
  return answer;
}
