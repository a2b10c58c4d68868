import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createAnswerer } from '../answer/answerer.ts';
import { bundleFolderReader } from '../built-folder.ts';
import { ORDERINGS, type Format } from '../contract.ts';
import { listRoute, recordRoutes, type RewriteMap } from '../plan/rewrite-map.ts';
import { listPageFile, recordFile } from '../plan/site-layout.ts';
import { LIST_PATH } from '../contract.ts';

/**
 * The query bundle of a new build, checked end to end before the switch, as a host that runs code will
 * read it: the answerer over the new folder must answer the first and last page of the list in every
 * ordering and format, and the first and last record of each kind, with the bytes of the files the
 * build wrote and verified (each file of the bundle was read back as it was rendered). The problems
 * found; none when it passes.
 */
export async function checkBundleAnswers(dir: string, map: RewriteMap, formats: readonly Format[], recordIds: Record<string, number[]>): Promise<string[]> {
  const answerer = createAnswerer(bundleFolderReader(dir));
  const problems: string[] = [];
  const compare = async (target: string, file: string) => {
    let reply;
    try {
      reply = await answerer.answer('GET', target);
    } catch (error) {
      return void problems.push(`the query bundle cannot answer ${target}: ${(error as Error).message}`);
    }
    const expected = await readFile(path.join(dir, file));
    if (reply.status !== 200 || !Buffer.from(reply.body, 'utf8').equals(expected)) {
      problems.push(`the query bundle answers ${target} with ${reply.status} and other bytes than ${file}`);
    }
  };
  const last = listRoute(map).page.last;
  for (const format of formats) {
    for (const ordering of ORDERINGS) {
      for (const page of new Set([1, last])) {
        const query = [format === '' ? '' : `format=${format}`, ordering === '' ? '' : `ordering=${ordering}`, page === 1 ? '' : `page=${page}`].filter(Boolean).join('&');
        await compare(`${LIST_PATH}${query === '' ? '' : `?${query}`}`, listPageFile(LIST_PATH, undefined, format, ordering, page));
      }
    }
    for (const route of recordRoutes(map)) {
      for (const id of recordIds[route.name] ?? []) {
        await compare(`${route.path.replace('{id}', String(id))}${format === '' ? '' : `?format=${format}`}`, recordFile(route.path, id, format));
      }
    }
  }
  return problems;
}
