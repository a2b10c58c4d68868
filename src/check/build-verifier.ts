import { createHash } from 'node:crypto';
import { CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX, type Ordering } from '../contract.ts';
import { choiceStep, listRoute, recordRoutes, type RewriteMap } from '../plan/rewrite-map.ts';
import { pageFileName } from '../plan/site-layout.ts';
import type { SiteUnit } from '../plan/site-units.ts';
import type { ListPage, PageParts } from '../render/bodies.ts';
import { resolveRequest } from '../routing/resolve-request.ts';
import { IdSet, type IdWords } from './id-set.ts';
import { LinkShapes, type LinkShape } from './link-shapes.ts';
import { readHead } from './page-head.ts';
import { RECORD_FILE, groupOf } from './link-tracker.ts';
import { LENGTH_NOT_KEPT, VerifiedResults, type SharedVerifiedResults } from './verified-results.ts';
import { checkEnvelope, checkPage, checkRecord, followResultLinks, listOf, listShape, parse, type Follow, type ListOfPage, type Page } from './page-rules.ts';

/** The route of client links among `LinkShapes`' prefixes (the registrants' is 1). */
const CLIENT_ROUTE = 0;

/** What one render thread verified, for the build to join with the other threads' findings. */
export interface VerifiedFacts {
  problems: string[];
  /** Problems found, listed or not. */
  found: number;
  links: number;
  /** Per group of record files (`api/v1/clients/*\/index.json`): the ids written, and the ids some link names. */
  written: [string, IdWords][];
  linked: [string, IdWords][];
  /** Per filtered unit: how many values have lists, and a digest of which, to compare across orderings. */
  filteredValues: { filter: string; ordering: Ordering; values: number; digest: string }[];
}

/**
 * The check of a build, done where each body is rendered: the render thread hands every body to
 * `verify` before writing it. The body is parsed back and held to the same rules as `check` applies
 * to a folder (page-rules.ts): counts, results per page, `next`/`previous` leading to the neighbouring
 * page, every `url` resolving through the rewrite map to a file of the build. What one body cannot
 * show is joined at the end (`joinVerifiedFacts`): each list has all its pages, every record file a
 * link names exists, and every record file is reached by a link.
 */
export class BuildVerifier {
  private readonly problems: string[] = [];
  private found = 0;
  private links = 0;
  private readonly written = new Map<string, IdSet>();
  private readonly linked = new Map<string, IdSet>();
  /** Record links by shape: which ids were resolved through the map, and which results were parsed and followed. */
  private readonly linkShapes: LinkShapes;
  /** The client results every render thread verified, by the build's format (the shapes given in advance): none without sharing. */
  private readonly verifiedByFormat: readonly VerifiedResults[];
  /** Pages written per folder (a list in one format) in the unit under way, and the count the first of them gave. */
  private pagesIn = new Map<string, ListUnderWay>();
  /** The list whose page is being verified: its page links resolve the way its first one did (`followPageLink`). */
  private listUnderWay: ListUnderWay | undefined;
  /** The file name of a page after the first, around its number: `page=` and `.json`. */
  private readonly pageFile: readonly [string, string];
  /** The map's page parameter as a link spells it before the number: `page=`. */
  private readonly pageParameter: string;
  /** The unit under way, when the caller says (`startUnit`): its lists are then checked value by value. */
  private unit: SiteUnit | undefined;
  /** In a filtered unit: the value (`client_state=TX/`) whose pages `pagesIn` holds, and the values done. */
  private openValue: string | undefined;
  private doneValues: string[] = [];
  private readonly filteredValues: VerifiedFacts['filteredValues'] = [];
  private readonly follow: Follow;

  /** `shared`: the client results verified by every render thread (one array per format), when the build shares them. */
  constructor(
    private readonly map: RewriteMap,
    private readonly problemLimit = 50,
    shared?: SharedVerifiedResults,
  ) {
    const expected = (shared?.suffixes ?? []).map((suffix, i) => ({ route: CLIENT_ROUTE, suffix, verified: new VerifiedResults(new Int32Array(shared!.buffers[i]!)) }));
    this.linkShapes = new LinkShapes([CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX].map((prefix) => `${map.baseUrl}${prefix}`), expected);
    this.verifiedByFormat = expected.map((shape) => shape.verified);
    this.follow = (from, field, link, reaches = true) => this.followLink(from, field, link, reaches);
    const pageStep = listRoute(map).page;
    const [before, after = ''] = pageStep.otherFile.split('{n}');
    this.pageFile = [before!, after];
    this.pageParameter = `${pageStep.param}=`;
  }

  readonly problem = (text: string): void => {
    this.found++;
    if (this.problems.length < this.problemLimit) this.problems.push(text);
  };

  /**
   * Verifies one body of the build, given as the text whose UTF-8 bytes are written (`size` of them,
   * when the caller has them). A page of a list may come with the parts it was assembled from
   * (`page`): when the body is exactly their assembly, the parts are verified instead of the whole,
   * each client's body once (`verifyParts`); otherwise, or without parts, the body is parsed whole.
   */
  verify(file: string, body: string, page?: PageParts, size = Buffer.byteLength(body)): void {
    const record = RECORD_FILE.exec(file);
    if (record !== null) {
      this.group(this.written, groupOf(record)).add(Number(record[2]));
      if (!this.isVerifiedRecord(file, body, size)) checkRecord(file, body, this.follow, this.problem);
      return;
    }
    this.verifyListPage(file, (of) => (page !== undefined && isAssembly(body, page) ? this.verifyParts(file, page, of) : checkPage(file, body, this.map, this.follow, this.problem)));
  }

  /**
   * A page of a list as a render thread writes it (`BodyBytes.listPage`): `bytes`, its head ending at
   * `layout.headEnd` and its results at `layout.resultEnds`, encoded as Latin-1 when `ascii` (its text
   * is ASCII), else UTF-8. Its head is verified
   * as the text it was written from, its results in the bytes: a client the renderer names
   * (`page.clients`) whose body some thread verified in this format is counted when its result is as
   * many bytes; any other result is read from the bytes and verified as `verifyParts` does.
   */
  verifyListPageBytes(file: string, page: ListPage, bytes: Buffer, layout: PageLayout, ascii: boolean): void {
    this.verifyListPage(file, (of) => {
      const envelope = this.verifiedHead(file, page.head, page.clients.length, of);
      if (envelope === undefined) return undefined;
      const known = this.verifiedByFormat[page.format];
      let start = layout.headEnd;
      for (let i = 0; i < page.clients.length; i++) {
        const end = layout.resultEnds[i]!;
        // The same store row through the same renderer, as long as a result verified before: the same bytes.
        if (known?.lengthOf(page.clients[i]!.id) === end - start) this.links += 2;
        else this.verifyResult(file, bytes.toString(ascii ? 'latin1' : 'utf8', start, end), end - start);
        start = end + 1;
      }
      return envelope.count;
    });
  }

  /** Holds a page to its list: `check` verifies it and gives its count, which its list's pages must share. */
  private verifyListPage(file: string, check: (of: ListOfPage) => number | undefined): void {
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    let list = this.pagesIn.get(folder);
    // Which list the page belongs to, found at its first page (its folder says): this runs for every page of the build.
    const of = list?.of ?? listOf(file, this.map);
    if (of === undefined) return;
    // A new value of a filtered unit lets the last one's lists go: never the list of a folder already held.
    if (this.unit?.kind === 'filtered') this.enterValue(this.unit, of);
    if (list === undefined) this.pagesIn.set(folder, (list = { of, pages: 0, count: undefined, pageLinks: undefined }));
    this.listUnderWay = list;
    const count = check(of);
    this.listUnderWay = undefined;
    list.pages++;
    if (list.pages === 1) list.count = count;
    // A filtered list's count is in no map: its pages must at least agree on it.
    else if (count !== list.count) this.problem(`${file}: count ${count}, the list's first page says ${list.count}`);
  }

  /**
   * A page whose body is its parts assembled: the head is read (`readHead`, or parsed with the array
   * of results closed, `]}`) and held to the page's rules; it ends in the `[` that opens the results,
   * so the page is JSON when each result is. A result is parsed and its links followed the first time this thread meets its
   * client in this format; later pages have the same bytes for it (the same store row through the same
   * renderer), so there it is only counted. Returns the page's count.
   */
  private verifyParts(file: string, page: PageParts, of: ListOfPage): number | undefined {
    const envelope = this.verifiedHead(file, page.head, page.results.length, of);
    if (envelope === undefined) return undefined;
    for (const result of page.results) this.verifyResult(file, result, Buffer.byteLength(result));
    return envelope.count;
  }

  /** A page's head held to the page's rules, given how many results follow it; undefined when it is no page's head. */
  private verifiedHead(file: string, head: string, results: number, of: ListOfPage): Omit<Page, 'results'> | undefined {
    const envelope = readHead(head) ?? this.parseHead(file, head);
    if (envelope === undefined) return undefined;
    return checkEnvelope(file, envelope, results, this.map, this.follow, this.problem, of) ? envelope : undefined;
  }

  /**
   * One result of a page, `size` bytes: counted when its text names a client verified before in this
   * shape and is as long (or was verified by this thread alone, length not kept); else parsed, its
   * links followed, and, without a problem, kept as verified with its length.
   */
  private verifyResult(file: string, result: string, size: number): void {
    const shapes = this.linkShapes;
    const seen = shapes.readResult(result);
    const length = seen?.verified.lengthOf(shapes.id);
    if (length === size || length === LENGTH_NOT_KEPT) {
      this.links += 2;
      return;
    }
    const client = parse<Page['results'][number]>(file, result, this.problem);
    if (client === undefined) return;
    const found = this.found;
    followResultLinks(file, client, this.follow);
    const url = client?.url;
    const shape = typeof url === 'string' ? shapes.read(url, 0, url.length) : undefined;
    if (this.found === found && shape !== undefined && shapes.id === client?.id) shape.verified.add(shapes.id, size);
  }

  /**
   * A client's record file whose text is a result some thread verified: its first bytes name the
   * same link (`readResult`), it is as long, and that link resolves here to this very file. It is then
   * the same bytes (the same store row through the same renderer, `clientBody`), and its two links
   * were followed with the result's; they are only counted.
   */
  private isVerifiedRecord(file: string, body: string, size: number): boolean {
    const shapes = this.linkShapes;
    const shape: LinkShape | undefined = shapes.readResult(body);
    if (shape === undefined || shape.route !== CLIENT_ROUTE || shape.group === undefined) return false;
    if (shape.verified.lengthOf(shapes.id) !== size || shape.group.replace('*', String(shapes.id)) !== file) return false;
    this.links += 2;
    return true;
  }

  /** A page's head that `readHead` could not read: parsed with its results closed (`]}`), and held to the contract's keys. */
  private parseHead(file: string, head: string): Omit<Page, 'results'> | undefined {
    const envelope = parse<Page>(file, `${head}]}`, this.problem);
    if (envelope === undefined) return undefined;
    // The `[` the head ends with must open `results` itself: the keys in the contract's order, results last.
    if (Object.keys(envelope ?? {}).join() !== 'count,next,previous,results' || !Array.isArray(envelope.results) || !head.endsWith('"results":[')) {
      return void this.problem(`${file}: the page's keys are not count, next, previous and results`);
    }
    return envelope;
  }

  /**
   * Before the first file of a unit. A filtered unit's lists come value after value: each value's
   * lists are checked when the next value begins, so that memory holds one value's folders, not every
   * value's (tens of thousands of registrants at 300,000 records). A list unit's filters (a few
   * hundred values at most) come interleaved, so `endUnit` checks them all, as it checks everything
   * when this was not called.
   */
  startUnit(unit: SiteUnit): void {
    this.unit = unit;
    this.openValue = undefined;
    this.doneValues = [];
    this.pagesIn = new Map();
  }

  /** After the last file of a unit: its lists have every page the map gives them, in every format. */
  endUnit(unit: SiteUnit): void {
    if (unit.kind === 'list') {
      this.checkLists([''], unit.ordering);
      for (const filter of unit.filters ?? []) this.endFilter(filter, unit.ordering, []);
    }
    if (unit.kind === 'filtered') this.endFilter(unit.filter, unit.ordering, this.doneValues);
    this.unit = undefined;
    this.openValue = undefined;
    this.doneValues = [];
    this.pagesIn = new Map();
  }

  /**
   * The lists of a filter's values in one ordering, at the end of their unit: those still held are
   * checked, and which values have lists (`done` and those) is noted, for `joinVerifiedFacts` to
   * compare across orderings.
   */
  private endFilter(filter: string, ordering: Ordering, done: readonly string[]): void {
    const open = this.valuesIn(filter);
    this.checkLists(open, ordering);
    const values = [...done, ...open];
    const digest = createHash('md5').update(values.sort().join('\n')).digest('hex');
    this.filteredValues.push({ filter, ordering, values: values.length, digest });
  }

  /** A page of a filtered unit, of the list `of`: when it begins another value, the value before is checked and let go. */
  private enterValue(unit: Extract<SiteUnit, { kind: 'filtered' }>, of: ListOfPage): void {
    const value = of.filter === undefined ? '' : `${of.filter.name}=${of.filter.value}/`;
    if (value === this.openValue) return;
    if (this.openValue !== undefined) {
      const done = this.valuesIn(unit.filter);
      this.checkLists(done, unit.ordering);
      this.doneValues.push(...done);
      this.pagesIn = new Map();
    }
    this.openValue = value;
  }

  /** Each value's list (its folder part, `''` for none) has, in every format, every page the map gives it. */
  private checkLists(values: readonly string[], ordering: Ordering): void {
    const { prefix } = listShape(this.map);
    const list = listRoute(this.map);
    const formats = Object.values(choiceStep(list, 'format')?.choices ?? { '': '' });
    const orderingPart = (choiceStep(list, 'ordering')?.choices ?? { '': '' })[ordering] ?? '';
    for (const value of values) {
      for (const format of formats) {
        const folder = `${prefix}${value}${format}${orderingPart}`;
        const pages = this.pagesIn.get(folder)?.pages ?? 0;
        const last = listOf(`${folder}${pageFileName(1)}`, this.map)?.last;
        if (pages !== last) this.problem(`${folder}: ${pages} pages, the map says ${last}`);
      }
    }
  }

  facts(): VerifiedFacts {
    const wordsOf = (sets: Map<string, IdSet>) => [...sets].map(([group, ids]) => [group, ids.toWords()] as [string, IdWords]);
    return { problems: this.problems, found: this.found, links: this.links, written: wordsOf(this.written), linked: wordsOf(this.linked), filteredValues: this.filteredValues };
  }

  /** The values of a filter whose pages this unit wrote, each as its folder part `client_state=TX/`. */
  private valuesIn(filter: string): string[] {
    const values = new Set<string>();
    for (const { of } of this.pagesIn.values()) {
      if (of.filter?.name === filter) values.add(`${filter}=${of.filter.value}/`);
    }
    return [...values];
  }

  /**
   * Resolves a link through the rewrite map and says which file it names. A link to a record is
   * resolved the first time its URL is met; the same URL again (the same client in another list, or
   * a record file's own `url`) is only counted: the million links of a build cost a few hundred
   * thousand resolutions. A link that does not reach its file (`reaches` false: a record's own `url`)
   * may use what other links resolved, but never counts as reaching it.
   */
  private followLink(from: string, field: string, link: unknown, reaches: boolean): string | undefined {
    this.links++;
    if (typeof link !== 'string') return void this.problem(`${from}: ${field} is missing`);
    if (field === 'next' || field === 'previous') return this.followPageLink(from, field, link);
    const shape = this.linkShapes.read(link, 0, link.length);
    const linkId = this.linkShapes.id;
    if (shape?.group !== undefined) {
      // Resolved before by a link that reaches it, so already among the linked ids (which only grow).
      if (shape.resolved.has(linkId)) return shape.group.replace('*', String(linkId));
      // Another id of a shape that resolved: a record route's steps read only the query (the same for
      // every link of a shape), so the link names the same file with its own id, if the route takes an
      // id that long. One resolution per shape instead of one per record and format.
      const id = String(linkId);
      if (id.length <= this.map.paths.idDigits) {
        if (reaches) {
          this.group(this.linked, shape.group).add(linkId);
          shape.resolved.add(linkId);
        }
        return shape.group.replace('*', id);
      }
    }
    const file = this.resolve(from, field, link);
    if (file === undefined) return undefined;
    const record = RECORD_FILE.exec(file);
    if (record === null) return void this.problem(`${from}: ${field} ${link} names ${file}, which is not a record file`);
    if (reaches) {
      const group = groupOf(record);
      const id = Number(record[2]);
      this.group(this.linked, group).add(id);
      // The same URL again will name the same file: remember that this one was resolved.
      if (shape !== undefined && id === linkId) {
        shape.group ??= group;
        if (shape.group === group) shape.resolved.add(id);
      }
    }
    return file;
  }

  /**
   * A page's `next` or `previous` link: resolved through the map the first time the list meets a link
   * to a page after the first (`…&page=3`), and from then on read as that link with another number.
   * The map's page step names page N's file by putting N into one name (`page={n}.json`) after every
   * other parameter has picked its folder, so the list's other links with the same text around the
   * number name the same file with their number: two links per page and format, over two million at
   * 134,719 records, cost one resolution per list and format. The caller compares the file with the
   * neighbouring page's, which holds the number to the list's range. A number written any other way
   * (a leading zero, the last page's alias) is resolved as it stands.
   */
  private followPageLink(from: string, field: string, link: string): string | undefined {
    const list = this.listUnderWay;
    const number = pageNumberIn(link, this.pageParameter);
    const known = list?.pageLinks;
    if (number !== undefined && known !== undefined && number.start === known.linkBefore.length && link.length - number.end === known.linkAfter.length) {
      if (link.startsWith(known.linkBefore) && link.endsWith(known.linkAfter)) return `${known.fileBefore}${link.slice(number.start, number.end)}${known.fileAfter}`;
    }
    const file = this.resolve(from, field, link);
    if (file !== undefined && list !== undefined && known === undefined && number !== undefined) {
      const [before, after] = this.pageFile;
      const name = `${before}${link.slice(number.start, number.end)}${after}`;
      if (file.endsWith(`/${name}`)) {
        const fileBefore = `${file.slice(0, file.length - name.length)}${before}`;
        list.pageLinks = { linkBefore: link.slice(0, number.start), linkAfter: link.slice(number.end), fileBefore, fileAfter: after };
      }
    }
    return file; // checked against the neighbouring page
  }

  /** The file a link under the base URL names, through the map; undefined, with the problem said, when it names none. */
  private resolve(from: string, field: string, link: string): string | undefined {
    if (!link.startsWith(`${this.map.baseUrl}/`)) return void this.problem(`${from}: ${field} ${link} is not under the base URL ${this.map.baseUrl}`);
    const answer = resolveRequest(this.map, 'GET', link.slice(this.map.baseUrl.length));
    if (answer.kind !== 'file') return void this.problem(`${from}: ${field} ${link} answers ${answer.status}, not a file`);
    return answer.file;
  }

  private group(sets: Map<string, IdSet>, group: string): IdSet {
    let ids = sets.get(group);
    if (ids === undefined) sets.set(group, (ids = new IdSet()));
    return ids;
  }
}

/** Where a list page's pieces end in its bytes, as `BodyBytes.listPage` wrote them. */
export interface PageLayout {
  headEnd: number;
  resultEnds: readonly number[];
}

/** A list in one format, as far as its pages have been verified. */
interface ListUnderWay {
  of: ListOfPage;
  pages: number;
  /** The count its first page gave. */
  count: number | undefined;
  /** How a link to one of its pages after the first resolved: the link around the number, and the file around it. */
  pageLinks: { linkBefore: string; linkAfter: string; fileBefore: string; fileAfter: string } | undefined;
}

/**
 * Where the number of a link's page parameter (`parameter`: `page=`) lies (`?page=12`, `&page=12`, the
 * last such), when it names a page after the first in plain digits: no leading zero, not 1. Undefined otherwise.
 */
function pageNumberIn(link: string, parameter: string): { start: number; end: number } | undefined {
  const at = link.lastIndexOf(parameter);
  if (at < 1 || (link.charCodeAt(at - 1) !== 0x3f && link.charCodeAt(at - 1) !== 0x26)) return undefined; // '?', '&'
  const start = at + parameter.length;
  let end = start;
  while (end < link.length && link.charCodeAt(end) >= 0x30 && link.charCodeAt(end) <= 0x39) end++;
  if (end === start || link.charCodeAt(start) === 0x30 || (end === start + 1 && link.charCodeAt(start) === 0x31)) return undefined;
  if (end < link.length && link.charCodeAt(end) !== 0x26) return undefined;
  return { start, end };
}

/** Whether `body` is exactly the page `parts` make: compared piece by piece, which costs far less than parsing. */
function isAssembly(body: string, parts: PageParts): boolean {
  const { head, results } = parts;
  let length = head.length + Math.max(results.length - 1, 0) + 2;
  for (const result of results) length += result.length;
  if (body.length !== length || body.slice(0, head.length) !== head || !body.endsWith(']}')) return false;
  let at = head.length;
  for (let i = 0; i < results.length; i++) {
    if (i > 0 && body.charCodeAt(at++) !== 44) return false; // ','
    const result = results[i]!;
    if (body.slice(at, at + result.length) !== result) return false;
    at += result.length;
  }
  return true;
}

/**
 * The findings of every render thread, joined: every record file a link names exists, every record
 * file is reached by a link, each record route has a file per record in every format, and every
 * filter has lists for the same values in each ordering. Returns every problem found, listed ones first.
 */
export function joinVerifiedFacts(map: RewriteMap, all: VerifiedFacts[], problemLimit = 50): { problems: string[]; found: number; links: number } {
  const problems = all.flatMap((facts) => facts.problems);
  let found = all.reduce((sum, facts) => sum + facts.found, 0);
  const problem = (text: string) => {
    found++;
    if (problems.length < problemLimit) problems.push(text);
  };
  const union = (pick: (facts: VerifiedFacts) => [string, IdWords][]) => {
    const sets = new Map<string, IdSet>();
    for (const facts of all) {
      for (const [group, words] of pick(facts)) {
        if (!sets.has(group)) sets.set(group, new IdSet());
        sets.get(group)!.merge(new IdSet(words));
      }
    }
    return sets;
  };
  const written = union((facts) => facts.written);
  const linked = union((facts) => facts.linked);
  for (const [group, ids] of linked) {
    for (const id of take(ids.without(written.get(group) ?? new IdSet()), problemLimit)) problem(`a link names ${group.replace('*', String(id))}, which the build did not write`);
  }
  for (const [group, ids] of written) {
    for (const id of take(ids.without(linked.get(group) ?? new IdSet()), problemLimit)) problem(`${group.replace('*', String(id))} is reached by no link`);
  }
  for (const route of recordRoutes(map)) {
    for (const fileName of Object.values(choiceStep(route, 'format')?.choices ?? {})) {
      const group = `${route.path.slice(1, route.path.indexOf('{id}'))}*/${fileName}`;
      const count = written.get(group)?.size ?? 0;
      if (count !== route.count) problem(`${route.path}: ${count} files ${fileName}, the map says ${route.count}`);
    }
  }
  const byFilter = new Map<string, VerifiedFacts['filteredValues']>();
  for (const entry of all.flatMap((facts) => facts.filteredValues)) byFilter.set(entry.filter, [...(byFilter.get(entry.filter) ?? []), entry]);
  for (const [filter, entries] of byFilter) {
    if (new Set(entries.map((entry) => entry.digest)).size > 1) {
      problem(`${filter}: the orderings have lists for different values (${entries.map((entry) => `${entry.ordering || 'none'}: ${entry.values}`).join(', ')})`);
    }
  }
  return { problems, found, links: all.reduce((sum, facts) => sum + facts.links, 0) };
}

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  for (const item of items) {
    yield item;
    if (--count === 0) return;
  }
}
