import {
  API_HEADERS,
  ALLOWED_METHODS,
  CLIENT_PATH_PREFIX,
  LIST_PATH,
  LIVE_FILTERS,
  ORDERINGS,
  PAGE_SIZE,
  REGISTRANT_PATH_PREFIX,
  folderName,
  type Format,
} from '../contract.ts';
import { jsonText } from '../render/json-text.ts';
import { lastPageFor } from './page-count.ts';

/**
 * The rewrite map: one JSON file in the output that says, for any request, which file answers it and
 * with which status. The preview and every host adapter are driven by it and decide nothing on their
 * own. Its format is documented in the README ("The rewrite map"); `MAP_FORMAT` changes when it does.
 */
export const MAP_FORMAT = 'lda-clients-mirror/rewrite-map@1';
export const MAP_FILE = 'rewrite-map.json';

export interface RewriteMap {
  format: typeof MAP_FORMAT;
  baseUrl: string;
  /** Sent with every API answer, errors and redirects included. */
  headers: Record<string, string>;
  /** Methods answered; any other gets `errors.methodNotAllowed`. HEAD is GET without a body. */
  methods: string[];
  /** Paths are percent-decoded, runs of `/` read as one, then matched; a known path missing its final `/` is a 301. */
  paths: { collapseSlashes: true; redirectMissingSlash: 301 };
  list: ListRoute;
  records: RecordRoute[];
  errors: ErrorAnswers;
  /** When several things are wrong, the first of these answers (contract section 5). */
  precedence: ['method', 'format', 'ordering', 'page_size', 'filters', 'page'];
}

/** Values of a query parameter: the decoded value (`""` = absent or empty) to the folder it selects. */
export type ValueFolders = Record<string, string>;

export interface ListRoute {
  path: string;
  /** `{format}`, `{ordering}` and `{page}` are filled with folder names and the page number. */
  file: string;
  format: ValueFolders;
  ordering: ValueFolders;
  /** `page`: absent or empty is 1; decimal digits (leading zeros allowed) from 1 to `last`; or `lastAlias`. */
  page: { first: 1; last: number; lastAlias: 'last' };
  /** `page_size`: a whole number of `served` or more is ignored, 1 to `served - 1` is a 400, anything else ignored. */
  pageSize: { served: number };
  /** Parameters that would filter the list: a 400 unless empty. */
  rejectedFilters: string[];
  count: number;
}

export interface RecordRoute {
  /** `{id}` stands for decimal digits; leading zeros are dropped before the file is looked up. */
  path: string;
  file: string;
  format: ValueFolders;
  /** An id whose file does not exist is `errors.notFound`. */
  count: number;
}

export interface ErrorAnswer {
  status: number;
  /** The body as a file in the output, for hosts that can only serve files. */
  file: string;
  body: string;
  /** The body naming the request's own value: `{value}`, `{name}`, `{method}` are JSON-escaped and filled in. */
  template?: string;
}

export interface ErrorAnswers {
  notFound: ErrorAnswer;
  invalidPage: ErrorAnswer;
  methodNotAllowed: ErrorAnswer & { byMethod: Record<string, ErrorAnswer> };
  unsupportedOrdering: ErrorAnswer;
  unsupportedPageSize: ErrorAnswer;
  unsupportedFilter: ErrorAnswer & { byName: Record<string, ErrorAnswer> };
}

export interface MapInput {
  baseUrl: string;
  formats: readonly Format[];
  clients: number;
  registrants: number;
}

/** Methods whose 405 body is also written as a file, for hosts that cannot fill in a template. */
const COMMON_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function createRewriteMap(input: MapInput): RewriteMap {
  const formats = valueFolders(input.formats);
  const supportedOrderings = ORDERINGS.filter((o) => o !== '').sort().join(', ');
  return {
    format: MAP_FORMAT,
    baseUrl: input.baseUrl,
    headers: { ...API_HEADERS },
    methods: [...ALLOWED_METHODS],
    paths: { collapseSlashes: true, redirectMissingSlash: 301 },
    list: {
      path: LIST_PATH,
      file: 'pages/{format}/{ordering}/{page}.json',
      format: formats,
      ordering: valueFolders(ORDERINGS),
      page: { first: 1, last: lastPageFor(input.clients), lastAlias: 'last' },
      pageSize: { served: PAGE_SIZE },
      rejectedFilters: [...LIVE_FILTERS],
      count: input.clients,
    },
    records: [
      { path: `${CLIENT_PATH_PREFIX}{id}/`, file: 'clients/{format}/{id}.json', format: formats, count: input.clients },
      {
        path: `${REGISTRANT_PATH_PREFIX}{id}/`,
        file: 'registrants/{format}/{id}.json',
        format: formats,
        count: input.registrants,
      },
    ],
    errors: {
      notFound: detail(404, 'errors/404-not-found.json', 'Not found.'),
      invalidPage: detail(404, 'errors/404-invalid-page.json', 'Invalid page.'),
      methodNotAllowed: {
        ...detail(405, 'errors/405.json', 'Method not allowed.', 'Method "{method}" not allowed.'),
        byMethod: Object.fromEntries(
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
        ...detail(
          400,
          'errors/400-filter.json',
          'Unsupported filter: this mirror serves unfiltered pages only. Supported parameters: format, ordering, page.',
          'Unsupported filter {name}="{value}": this mirror serves unfiltered pages only. Supported parameters: format, ordering, page.',
        ),
        byName: Object.fromEntries(
          LIVE_FILTERS.map((name) => [
            name,
            detail(
              400,
              `errors/400-filter-${name}.json`,
              `Unsupported filter ${name}: this mirror serves unfiltered pages only. Supported parameters: format, ordering, page.`,
            ),
          ]),
        ),
      },
    },
    precedence: ['method', 'format', 'ordering', 'page_size', 'filters', 'page'],
  };
}

/** Every error answer of the map, for writing their files. */
export function errorAnswers(map: RewriteMap): ErrorAnswer[] {
  const { methodNotAllowed, unsupportedFilter, ...rest } = map.errors;
  return [
    ...Object.values(rest),
    methodNotAllowed,
    ...Object.values(methodNotAllowed.byMethod),
    unsupportedFilter,
    ...Object.values(unsupportedFilter.byName),
  ];
}

function valueFolders(values: readonly string[]): ValueFolders {
  return Object.fromEntries(values.map((value) => [value, folderName(value as Format)]));
}

function detail(status: number, file: string, text: string, template?: string): ErrorAnswer {
  const answer: ErrorAnswer = { status, file, body: jsonText({ detail: text }) };
  // Templates keep their placeholders unescaped; everything around them is JSON text already.
  if (template !== undefined) answer.template = jsonText({ detail: template });
  return answer;
}
