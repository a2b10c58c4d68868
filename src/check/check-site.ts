import { opendirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadMap } from '../built-folder.ts';
import { MAP_FILE, choiceStep, errorAnswers, listRoute, recordRoutes, type RewriteMap, type Route } from '../plan/rewrite-map.ts';
import { API_FOLDER, pageFileName, recordKind } from '../plan/site-layout.ts';
import { resolveRequest } from '../routing/resolve-request.ts';
import { PathIndex } from '../store/path-index.ts';
import { LinkTracker } from './link-tracker.ts';
import { checkPage, checkRecord, listOf, listShape, type ListOfPage } from './page-rules.ts';
import { BUILD_FOLDER, MANIFEST_FILE, MANIFEST_HASH, fileHash, listsOurHash, manifestHashOf, readManifestBatches } from '../write/manifest.ts';

export interface CheckResult {
  files: number;
  links: number;
  problems: string[];
  /** More problems were found than listed. */
  truncated: boolean;
}

export interface CheckOptions {
  problemLimit?: number;
  /** Where the check keeps its index of paths (a SQLite file, deleted at the end). */
  indexFile: string;
  /** Called now and then with the files checked so far, of the `total` the manifest lists. */
  onProgress?: (files: number, total: number) => void;
}


/**
 * Verifies a built folder as a client would find it:
 * - the manifest matches the files, byte for byte (size and SHA-1), and lists every one of them;
 * - every `url`, `next` and `previous` in every file resolves through the rewrite map to a file
 *   that exists, and `next`/`previous` to the neighbouring page;
 * - every file is reached by some link (or is an entry point: a first page, an error body, the map);
 * - the counts agree: `count` on every page, pages per ordering, record files per format.
 */
export async function checkSite(dir: string, options: CheckOptions): Promise<CheckResult> {
  const map = await loadMap(dir);
  const limit = options.problemLimit ?? 50;
  const problems: string[] = [];
  let found = 0;
  const problem = (text: string) => {
    found++;
    if (problems.length < limit) problems.push(text);
  };
  const index = PathIndex.create(options.indexFile);
  const tracker = new LinkTracker();
  let files = 0;
  let links = 0;
  try {
    const manifestFiles = await indexManifest(dir, index, tracker, map);
    // An older program's manifest (MD5) is held to its sizes only, and said once.
    const listedHash = manifestHashOf(dir);
    const hashesCompare = listsOurHash(listedHash);
    if (!hashesCompare) {
      problem(`${MANIFEST_FILE} lists ${listedHash}, where this version lists ${MANIFEST_HASH}: build the folder again`);
    }

    /** A link of a body: the file it resolves to, which must exist; it is then reached (unless it links to itself). */
    const follow = (from: string, field: string, link: unknown, reaches = true): string | undefined => {
      links++;
      if (typeof link !== 'string') return void problem(`${from}: ${field} is missing`);
      if (!link.startsWith(`${map.baseUrl}/`)) return void problem(`${from}: ${field} ${link} is not under the base URL ${map.baseUrl}`);
      const answer = resolveRequest(map, 'GET', link.slice(map.baseUrl.length));
      if (answer.kind !== 'file') return void problem(`${from}: ${field} ${link} answers ${answer.status}, not a file`);
      const exists = reaches ? tracker.link(answer.file) : tracker.has(answer.file);
      if (!exists) return void problem(`${from}: ${field} ${link} names ${answer.file}, which does not exist`);
      return answer.file;
    };

    for (const entry of entryPoints(map)) if (!tracker.link(entry)) problem(`${entry} is missing`);

    index.transaction(() => {
      for (const file of walk(dir)) {
        const listed = index.see(file);
        // Beside api/, a file the build did not list is host configuration emitted later (npm run emit).
        if (listed === undefined && !file.startsWith(API_FOLDER)) continue;
        files++;
        if (files % 1000 === 0) options.onProgress?.(files, manifestFiles);
        const bytes = readFileSync(path.join(dir, file));
        if (listed === undefined) problem(`${file} is not in the manifest`);
        else if (listed.size !== bytes.length || (hashesCompare && listed.hash !== fileHash(bytes))) {
          problem(`${file} differs from the manifest (size ${bytes.length}, listed ${listed.size})`);
        }
        if (recordKind(file) !== undefined) checkRecord(file, bytes, follow, problem);
        else if (file.startsWith(API_FOLDER)) checkPage(file, bytes, map, follow, problem);
      }
    });
    for (const missing of index.unseen()) problem(`${missing} is in the manifest but missing from the folder`);
    for (const unreached of tracker.unreached()) problem(`${unreached} is reached by no link`);
    checkCounts(map, tracker, problem);
  } finally {
    index.destroy();
  }
  return { files, links, problems, truncated: found > problems.length };
}

/** Indexes the manifest's files, and says how many it lists. */
async function indexManifest(dir: string, index: PathIndex, tracker: LinkTracker, map: RewriteMap): Promise<number> {
  let listed = 0;
  for await (const batch of readManifestBatches(dir)) {
    listed += batch.length;
    index.addAll(batch);
    for (const entry of batch) {
      tracker.list(entry.path);
      // Beside api/, what the build lists is reached without a link (the map, error bodies, host configuration).
      if (!entry.path.startsWith(API_FOLDER)) tracker.link(entry.path);
      // The first page of a filtered list is reached by its filter's URL.
      else if (path.posix.basename(entry.path) === pageFileName(1) && listOf(entry.path, map)?.filter !== undefined) tracker.link(entry.path);
    }
  }
  return listed;
}

/** Files reached without a link: the map, the error bodies, and the first page of every list. */
function entryPoints(map: RewriteMap): string[] {
  const entries = [MAP_FILE, ...new Set(errorAnswers(map).map((answer) => answer.file))];
  for (const { folder } of listFolders(map)) entries.push(`${folder}${pageFileName(1)}`);
  return entries;
}

/**
 * The folder of every unfiltered list the map serves (each format and ordering), with its last page:
 * the clients' (`list`, the first route with a page step) first, then the registrants' (section 10).
 */
function listFolders(map: RewriteMap, only?: Route): { folder: string; last: number }[] {
  const lists = map.routes.filter((route) => (only === undefined || route === only) && route.steps.some((step) => step.step === 'page'));
  return lists.flatMap((list) => {
    const last = list.steps.flatMap((step) => (step.step === 'page' ? [step.last] : []))[0]!;
    const formats = Object.values(choiceStep(list, 'format')?.choices ?? { '': '' });
    const orderings = Object.values(choiceStep(list, 'ordering')?.choices ?? { '': '' });
    const prefix = list.file.slice(0, list.file.indexOf('{'));
    return formats.flatMap((format) => orderings.map((ordering) => ({ folder: `${prefix}${format}${ordering}`, last })));
  });
}

/** Every file of the folder but the build records, one folder at a time. */
function* walk(dir: string, relative = ''): Generator<string> {
  const folder = opendirSync(path.join(dir, relative));
  try {
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (child !== BUILD_FOLDER) yield* walk(dir, child);
      } else {
        yield child;
      }
    }
  } finally {
    folder.closeSync();
  }
}

function checkCounts(map: RewriteMap, index: LinkTracker, problem: (text: string) => void): void {
  const pagesIn = index.pagesByFolder(/^(?:index|page=[0-9]+)\.json$/);
  for (const { folder, last } of listFolders(map)) {
    const pages = pagesIn.get(folder) ?? 0;
    if (pages !== last) problem(`${folder}: ${pages} pages, the map says ${last}`);
  }
  // Every value of a filter that has lists has them in every format and ordering, each as long as the map says.
  const filteredValues = new Map<string, ListOfPage>();
  for (const folder of pagesIn.keys()) {
    const of = listOf(`${folder}${pageFileName(1)}`, map);
    if (of?.filter !== undefined) filteredValues.set(`${of.filter.name}=${of.filter.value}/`, of);
  }
  const { prefix } = listShape(map);
  for (const [valueFolder, of] of filteredValues) {
    for (const { folder } of listFolders(map, map.routes.find((route) => route.name === listRoute(map).name))) {
      const filtered = `${prefix}${valueFolder}${folder.slice(prefix.length)}`;
      const pages = pagesIn.get(filtered) ?? 0;
      if (pages !== of.last) problem(`${filtered}: ${pages} pages, the map says ${of.last}`);
    }
  }
  for (const record of recordRoutes(map)) {
    for (const fileName of Object.values(choiceStep(record, 'format')?.choices ?? {})) {
      const count = index.countRecords(record.path, fileName);
      if (count !== record.count) problem(`${record.path}: ${count} files ${fileName}, the map says ${record.count}`);
    }
  }
}

