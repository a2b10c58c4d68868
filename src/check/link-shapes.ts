import { IdSet } from './id-set.ts';

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
  /** Ids whose result of this shape was parsed and had its links followed without a problem. */
  readonly verified: IdSet;
}

/** A route's shapes are few (one per format); a text with more is no build's, and is parsed each time. */
const MOST_SHAPES_PER_ROUTE = 16;
const QUOTE = 34;
const BACKSLASH = 92;
const ZERO = 48;
const NINE = 57;

/**
 * Reads record links where they lie in a text, without slicing them out: it runs for every result of
 * every page (millions per build), so it allocates nothing once a link's shape is known.
 */
export class LinkShapes {
  /** The id of the link that `read` or `readResult` last found. */
  id = 0;
  private readonly shapes: LinkShape[][];
  /** The value of the digits `digitsEnd` last read. */
  private digits = 0;

  /** `prefixes`: per route, the URL up to the id. */
  constructor(private readonly prefixes: readonly string[]) {
    this.shapes = prefixes.map(() => []);
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
      const idEnd = this.digitsEnd(text, idAt, end);
      if (idEnd === idAt || text.charCodeAt(idAt) === ZERO) return undefined;
      this.id = this.digits;
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
    const idEnd = this.digitsEnd(result, 6, result.length);
    if (idEnd === 6 || (result.charCodeAt(6) === ZERO && idEnd > 7) || !result.startsWith(',"url":"', idEnd)) return undefined;
    const id = this.digits;
    const urlAt = idEnd + 8;
    const urlEnd = result.indexOf('"', urlAt);
    if (urlEnd < 0) return undefined;
    const shape = this.read(result, urlAt, urlEnd);
    return shape !== undefined && this.id === id ? shape : undefined;
  }

  /** Where the digits from `from` end, at most 15 of them (so their value is exact); their value in `digits`. */
  private digitsEnd(text: string, from: number, end: number): number {
    let at = from;
    let value = 0;
    for (; at < end && at - from < 15; at++) {
      const code = text.charCodeAt(at);
      if (code < ZERO || code > NINE) break;
      value = value * 10 + code - ZERO;
    }
    this.digits = value;
    return at;
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
    const shape: LinkShape = { route, suffix: text.slice(from, end), group: undefined, resolved: new IdSet(), verified: new IdSet() };
    shapes.push(shape);
    return shape;
  }
}
