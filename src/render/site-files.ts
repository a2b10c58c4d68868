import { CLIENT_PATH_PREFIX, LIST_PATH, ORDERINGS, PAGE_SIZE, REGISTRANT_PATH_PREFIX, type Format } from '../contract.ts';
import { jsonStringContent } from '../json-text.ts';
import { MAP_FILE, errorAnswers, listRoute, recordRoutes, type RewriteMap } from '../plan/rewrite-map.ts';
import { listPageFile, recordFile } from '../plan/site-layout.ts';
import type { RecordStore } from '../store/record-store.ts';
import { clientBody, formatSuffix, pageBody, registrantBody } from './bodies.ts';
import { pageLinkJson } from './links.ts';

/** One file of the output: its path relative to the output folder, and its text. */
export interface SiteFile {
  path: string;
  body: string;
}

/**
 * Every file of the site, produced lazily so that memory holds one page at a time: for each ordering,
 * one pass over the store in that order cuts pages of 25 and renders them in every format; the pass in
 * id order also yields each client's record files, the same bytes as inside the pages.
 */
export function* siteFiles(store: RecordStore, map: RewriteMap, formats: readonly Format[]): Generator<SiteFile> {
  const base = jsonStringContent(map.baseUrl);
  const suffixes = formats.map(formatSuffix);
  const list = listRoute(map);
  const count = list.count;
  const last = list.page.last;

  for (const ordering of ORDERINGS) {
    let page = 1;
    let batch: string[][] = formats.map(() => []); // per format, the bodies of this page's clients
    const emitPage = function* (): Generator<SiteFile> {
      for (const [i, format] of formats.entries()) {
        const next = pageLinkJson(map.baseUrl, format, ordering, page + 1, last);
        const previous = pageLinkJson(map.baseUrl, format, ordering, page - 1, last);
        yield { path: listPageFile(LIST_PATH, format, ordering, page), body: pageBody(count, next, previous, batch[i]!) };
      }
      page++;
      batch = formats.map(() => []);
    };

    for (const client of store.clientsInOrder(ordering)) {
      for (const [i, format] of formats.entries()) {
        const body = clientBody(base, suffixes[i]!, client);
        batch[i]!.push(body);
        if (ordering === '') yield { path: recordFile(`${CLIENT_PATH_PREFIX}{id}/`, client.id, format), body };
      }
      if (batch[0]!.length === PAGE_SIZE) yield* emitPage();
    }
    // The last, partial page; or the single empty page of an empty data set.
    if (batch[0]!.length > 0 || page === 1) yield* emitPage();
  }

  for (const registrant of store.registrants()) {
    for (const [i, format] of formats.entries()) {
      const body = registrantBody(base, suffixes[i]!, registrant.id, registrant.fields);
      yield { path: recordFile(`${REGISTRANT_PATH_PREFIX}{id}/`, registrant.id, format), body };
    }
  }

  for (const answer of errorAnswers(map)) yield { path: answer.file, body: answer.body };
  yield { path: MAP_FILE, body: `${JSON.stringify(map, null, 2)}\n` };
}

/** How many files `siteFiles` yields, known from the map before one is rendered: for a progress bar. */
export function siteFileCount(map: RewriteMap, formats: readonly Format[]): number {
  const records = recordRoutes(map).reduce((sum, route) => sum + route.count, 0);
  return (listRoute(map).page.last * ORDERINGS.length + records) * formats.length + errorAnswers(map).length + 1;
}
