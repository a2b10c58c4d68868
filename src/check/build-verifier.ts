import { CLIENT_PATH_PREFIX, REGISTRANT_PATH_PREFIX } from '../contract.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import type { ListPage, PageParts } from '../render/bodies.ts';
import type { SiteUnit } from '../plan/site-units.ts';
import { IdSet } from './id-set.ts';
import { LinkFollower } from './link-follower.ts';
import { LinkShapes, type LinkShape } from './link-shapes.ts';
import { readHead } from './page-head.ts';
import { RECORD_FILE, groupOf } from './link-tracker.ts';
import { UnitLists } from './unit-lists.ts';
import { idsOfGroup, wordsOfGroups, type VerifiedFacts } from './verified-facts.ts';
import { LENGTH_NOT_KEPT, VerifiedResults, type SharedVerifiedResults } from './verified-results.ts';
import { checkEnvelope, checkPage, checkRecord, followResultLinks, parse, type Follow, type ListOfPage, type Page } from './page-rules.ts';

/** The route of client links among `LinkShapes`' prefixes (the registrants' is 1). */
const CLIENT_ROUTE = 0;

/**
 * The check of a build, done where each body is rendered: the render thread hands every body to
 * `verify` before writing it. The body is parsed back and held to the same rules as `check` applies
 * to a folder (page-rules.ts): counts, results per page, `next`/`previous` leading to the neighbouring
 * page, every `url` resolving through the rewrite map to a file of the build (`LinkFollower`). What
 * one body cannot show is gathered and checked later: each list has all its pages (`UnitLists`, at
 * the end of its unit), every record file a link names exists, and every record file is reached by a
 * link (`joinVerifiedFacts`, over every thread's facts).
 */
export class BuildVerifier {
  private readonly problems: string[] = [];
  private found = 0;
  /** Per group of record files (`api/v1/clients/*\/index.json`): the ids written. */
  private readonly written = new Map<string, IdSet>();
  /** Record links by shape: which ids were resolved through the map, and which results were parsed and followed. */
  private readonly linkShapes: LinkShapes;
  /** The client results every render thread verified, by the build's format (the shapes given in advance): none without sharing. */
  private readonly verifiedByFormat: readonly VerifiedResults[];
  /** Follows the links of every body (`follow`), and counts them. */
  private readonly links: LinkFollower;
  /** The lists of the unit under way, and the pages verified of each. */
  private readonly lists: UnitLists;
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
    this.links = new LinkFollower(map, this.linkShapes, this.problem);
    this.lists = new UnitLists(map, this.problem);
    this.follow = this.links.follow;
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
      idsOfGroup(this.written, groupOf(record)).add(Number(record[2]));
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
        if (known?.lengthOf(page.clients[i]!.id) === end - start) this.links.followed += 2;
        else this.verifyResult(file, bytes.toString(ascii ? 'latin1' : 'utf8', start, end), end - start);
        start = end + 1;
      }
      return envelope.count;
    });
  }

  /** Holds a page to its list: `check` verifies it and gives its count, which its list's pages must share. */
  private verifyListPage(file: string, check: (of: ListOfPage) => number | undefined): void {
    const list = this.lists.listOfPage(file);
    if (list === undefined) return;
    this.links.listUnderWay = list;
    const count = check(list.of);
    this.links.listUnderWay = undefined;
    this.lists.addPage(file, list, count);
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
      this.links.followed += 2;
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
    this.links.followed += 2;
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

  /** Before the first file of a unit: its lists are then checked value by value (`UnitLists.startUnit`). */
  startUnit(unit: SiteUnit): void {
    this.lists.startUnit(unit);
  }

  /** After the last file of a unit: its lists have every page the map gives them, in every format. */
  endUnit(unit: SiteUnit): void {
    this.lists.endUnit(unit);
  }

  facts(): VerifiedFacts {
    return {
      problems: this.problems,
      found: this.found,
      links: this.links.followed,
      written: wordsOfGroups(this.written),
      linked: wordsOfGroups(this.links.linked),
      filteredValues: this.lists.filteredValues,
    };
  }
}

/** Where a list page's pieces end in its bytes, as `BodyBytes.listPage` wrote them. */
export interface PageLayout {
  headEnd: number;
  resultEnds: readonly number[];
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
