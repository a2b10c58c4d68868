import { IdSet } from './id-set.ts';
import { VerifiedResults } from './verified-results.ts';
import { BACKSLASH, QUOTE, ZERO, digitsEnd, digitsValue, isJsonWholeNumber } from './text-scan.ts';

/**
 * The shape of a record link: its route (the URL up to the id, `https://base/api/v1/clients/`) and
 * what follows the id (`/`, `/?format=api`). Every client of a format links the same way, so a build
 * has a handful of shapes, and what the check learned about a link holds for every id of its shape.
 */
export interface LinkShape {
  readonly route: number;
  readonly suffix: string;
  /** The file group (`api/v1/clients/*\/index.json`) a link of this shape resolved to, once one did. */
  group: string | undefined;
  /** Ids whose link of this shape was resolved through the map to a file of `group`. */
  readonly resolved: IdSet;
  /** Ids whose result of this shape was parsed and had its links followed without a problem (by any thread, for a shape given in advance). */
  readonly verified: VerifiedResults;
}

/** A shape known before any link is read (a format's), with results verified by every render thread. */
export interface ExpectedShape {
  route: number;
  suffix: string;
  verified: VerifiedResults;
}

/** A route's shapes are few (one per format); a text with more is no build's, and is parsed each time. */
const MOST_SHAPES_PER_ROUTE = 16;

/**
 * Reads record links where they lie in a text, without slicing them out: it runs for every result of
 * every page (millions per build), so it allocates nothing once a link's shape is known.
 */
export class LinkShapes {
  /** The id of the link that `read` or `readResult` last found. */
  id = 0;
  private readonly shapes: LinkShape[][];

  /** `prefixes`: per route, the URL up to the id. */
  constructor(
    private readonly prefixes: readonly string[],
    expected: readonly ExpectedShape[] = [],
  ) {
    this.shapes = prefixes.map((_, route) =>
      expected.filter((shape) => shape.route === route).map(({ suffix, verified }) => ({ route, suffix, group: undefined, resolved: new IdSet(), verified })),
    );
  }

  /**
   * The shape of the record link `text[from, end)`, its id in `id`; undefined when it is no record
   * link (another URL, no id, an id with a leading zero, a quote or an escape after the id).
   */
  read(text: string, from: number, end: number): LinkShape | undefined {
    for (let route = 0; route < this.prefixes.length; route++) {
      const prefix = this.prefixes[route]!;
      const idAt = from + prefix.length;
      if (idAt > end || !text.startsWith(prefix, from)) continue;
      const idEnd = digitsEnd(text, idAt, end);
      // A record's id has no leading zero, and is never 0.
      if (idEnd === idAt || text.charCodeAt(idAt) === ZERO) return undefined;
      this.id = digitsValue(text, idAt, idEnd);
      return this.shapeOf(route, text, idEnd, end);
    }
    return undefined;
  }

  /**
   * The shape of a result's `url`, read off the result's first bytes `{"id":7,"url":"…"` when it is
   * in that form and its `id` is the one its url names; undefined otherwise (the caller parses it).
   */
  readResult(result: string): LinkShape | undefined {
    if (!result.startsWith('{"id":')) return undefined;
    const idEnd = digitsEnd(result, 6, result.length);
    if (!isJsonWholeNumber(result, 6, idEnd) || !result.startsWith(',"url":"', idEnd)) return undefined;
    const id = digitsValue(result, 6, idEnd);
    const urlAt = idEnd + 8;
    const urlEnd = result.indexOf('"', urlAt);
    if (urlEnd < 0) return undefined;
    const shape = this.read(result, urlAt, urlEnd);
    return shape !== undefined && this.id === id ? shape : undefined;
  }

  /** The shape whose suffix is `text[from, end)`: compared with the known ones, a new one made only when none is. */
  private shapeOf(route: number, text: string, from: number, end: number): LinkShape | undefined {
    const shapes = this.shapes[route]!;
    const length = end - from;
    for (const shape of shapes) {
      if (shape.suffix.length === length && text.startsWith(shape.suffix, from)) return shape;
    }
    if (shapes.length >= MOST_SHAPES_PER_ROUTE) return undefined;
    for (let at = from; at < end; at++) {
      const code = text.charCodeAt(at);
      if (code === BACKSLASH || code === QUOTE) return undefined;
    }
    const shape: LinkShape = { route, suffix: text.slice(from, end), group: undefined, resolved: new IdSet(), verified: new VerifiedResults() };
    shapes.push(shape);
    return shape;
  }
}
