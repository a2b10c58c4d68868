import { listRoute, type RewriteMap } from '../plan/rewrite-map.ts';
import { resolveRequest } from '../routing/resolve-request.ts';
import type { IdSet } from './id-set.ts';
import { RECORD_FILE, groupOf } from './link-tracker.ts';
import type { LinkShapes } from './link-shapes.ts';
import type { Follow, Problem } from './page-rules.ts';
import { idsOfGroup } from './verified-facts.ts';

/** How a link to one of a list's pages after the first resolved: the link around the number, and the file around it. */
export interface PageLinks {
  linkBefore: string;
  linkAfter: string;
  fileBefore: string;
  fileAfter: string;
}

/**
 * Follows the links of the bodies a render thread verifies (`follow`, given to the page rules):
 * resolves each through the rewrite map to the file it names, as few times as the links' shapes
 * allow, counts them, and notes per group of record files the ids some link reaches.
 */
export class LinkFollower {
  /** Links followed, or counted as followed with a result verified before. */
  followed = 0;
  /** Per group of record files (`api/v1/clients/*\/index.json`): the ids some link reaches. */
  readonly linked = new Map<string, IdSet>();
  /** The list whose page is being verified: its page links resolve the way its first one did (`followPageLink`). */
  listUnderWay: { pageLinks: PageLinks | undefined } | undefined;
  readonly follow: Follow;
  /** The file name of a page after the first, around its number: `page=` and `.json`. */
  private readonly pageFile: readonly [string, string];
  /** The map's page parameter as a link spells it before the number: `page=`. */
  private readonly pageParameter: string;

  /** `shapes`: record links by shape, which ids were resolved through the map (shared with the verifier, which reads results by them). */
  constructor(
    private readonly map: RewriteMap,
    private readonly shapes: LinkShapes,
    private readonly problem: Problem,
  ) {
    this.follow = (from, field, link, reaches = true) => this.followLink(from, field, link, reaches);
    const pageStep = listRoute(map).page;
    const [before, after = ''] = pageStep.otherFile.split('{n}');
    this.pageFile = [before!, after];
    this.pageParameter = `${pageStep.param}=`;
  }

  /**
   * Resolves a link through the rewrite map and says which file it names. A link to a record is
   * resolved the first time its URL is met; the same URL again (the same client in another list, or
   * a record file's own `url`) is only counted: the million links of a build cost a few hundred
   * thousand resolutions. A link that does not reach its file (`reaches` false: a record's own `url`)
   * may use what other links resolved, but never counts as reaching it.
   */
  private followLink(from: string, field: string, link: unknown, reaches: boolean): string | undefined {
    this.followed++;
    if (typeof link !== 'string') return void this.problem(`${from}: ${field} is missing`);
    if (field === 'next' || field === 'previous') return this.followPageLink(from, field, link);
    const shape = this.shapes.read(link, 0, link.length);
    const linkId = this.shapes.id;
    if (shape?.group !== undefined) {
      // Resolved before by a link that reaches it, so already among the linked ids (which only grow).
      if (shape.resolved.has(linkId)) return shape.group.replace('*', String(linkId));
      // Another id of a shape that resolved: a record route's steps read only the query (the same for
      // every link of a shape), so the link names the same file with its own id, if the route takes an
      // id that long. One resolution per shape instead of one per record and format.
      const id = String(linkId);
      if (id.length <= this.map.paths.idDigits) {
        if (reaches) {
          idsOfGroup(this.linked, shape.group).add(linkId);
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
      idsOfGroup(this.linked, group).add(id);
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
