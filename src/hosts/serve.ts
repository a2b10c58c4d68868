import type { RewriteMap } from '../plan/rewrite-map.ts';
import { MAX_ID_DIGITS } from '../routing/resolve-request.ts';
import type { HostAdapter } from './host-adapter.ts';
import { fillFile } from './route-parts.ts';

/** The reason most behaviours are gaps. */
const QUERY = 'serve never sees the query string: every list request gets the first page in id order';

/**
 * `npx serve` (serve-handler inside) on the built folder, for a quick look without the preview.
 * serve-handler routes by the percent-decoded path alone and never sees the query string, so this is
 * the part of the map a path can express: the list's first page (no format, default ordering) and
 * the records, through `rewrites`; the map's headers on every file; `404.html` holding the map's 404
 * body, which serve sends for any path it has no file for. Both files go into the built folder, where
 * `serve` reads them (serve.json: no comment, serve rejects unknown keys).
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
    methods: 'serve answers every method as GET (no 405)',
    head: 'HEAD is GET without a body, but serve never sees the query string (HEAD ?page=9 is 200, not 404)',
    missingSlash: 'the 301 drops the query string, and repeated slashes are a 301 to the merged path instead of being read as one',
    headers: "301s carry only Location; a client that sends Accept: application/json gets serve's own JSON error for a 404",
    percentDecoding: 'paths are percent-decoded, but query strings are never read',
    repeatedParameters: QUERY,
  },
  emit: ({ map }) => [
    { name: 'serve.json', text: `${JSON.stringify(serveConfig(map), null, 2)}\n` },
    { name: '404.html', text: map.errors.notFound.body },
  ],
};

interface Rewrite {
  source: string;
  destination: string;
}

/** serve-handler's options (the keys serve's schema allows: it refuses any other). */
function serveConfig(map: RewriteMap): object {
  return {
    rewrites: rewrites(map),
    headers: [{ source: '**', headers: Object.entries(map.headers).map(([key, value]) => ({ key, value })) }],
    cleanUrls: false,
    trailingSlash: true,
    directoryListing: false,
    renderSingle: false,
  };
}

/**
 * The answers a path alone names: those of requests without a query, the absent `format` and
 * `ordering` (their folders under ''), page 1. Sources are path-to-regexp patterns, matched
 * case-insensitively against the decoded path without its final `/`: a record id is its digits with
 * leading zeros captured apart, at most the digits the router looks up.
 */
function rewrites(map: RewriteMap): Rewrite[] {
  const list = map.list;
  const result: Rewrite[] = [];
  const format = list.format[''];
  const ordering = list.ordering[''];
  if (format !== undefined && ordering !== undefined) {
    result.push({ source: list.path.replace(/\/$/, ''), destination: `/${fillFile(list.file, { format, ordering, page: '1' })}` });
  }
  for (const record of map.records) {
    const folder = record.format[''];
    if (folder === undefined) continue;
    const prefix = record.path.slice(0, record.path.indexOf('{id}'));
    result.push({
      source: `${prefix}:zeros(0{0,}):id(\\d{1,${MAX_ID_DIGITS}})`,
      destination: `/${fillFile(record.file, { format: folder, id: ':id' })}`,
    });
  }
  return result;
}
