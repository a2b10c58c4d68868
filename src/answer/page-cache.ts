import { WeighedCache } from '../bundle/weighed-cache.ts';

/**
 * The bodies of the latest list pages answered, by what the request asked of which list: a page is
 * a function of its bundle, its list and its query string alone (the links repeat the query), so the
 * same request asked again (a program paging back, many users of one search, a poll) is answered
 * without ordering, reading or rendering anything (issue 39: a repeated search cost what a new one
 * did). The answerer keeps one for each bundle it answers from: a newer build starts it empty.
 *
 * Only pages of a list that matches something are kept: a page that matches nothing is made from
 * the result cache's one empty order at no cost, and a stream of unique searches that match nothing
 * must not push out the pages worth keeping. Each entry weighs its key and body at two bytes a
 * character (a string of V8 takes one or two), and `ENTRY_BYTES` for the map's slot and the entry.
 */
const ENTRY_BYTES = 128;

export class PageCache {
  private readonly pages: WeighedCache<string>;

  /** By default a Worker's share: about a hundred pages of 25 clients. */
  constructor(readonly budget = 4 * 2 ** 20) {
    this.pages = new WeighedCache(budget);
  }

  /** What the pages kept weigh now. */
  get bytes(): number {
    return this.pages.bytes;
  }

  /** The body of the page `list` answers to `query` (the raw query string), if kept. */
  get(list: string, query: string): string | undefined {
    return this.pages.get(keyOf(list, query));
  }

  /** Keeps the body of a page of a list that matched `count` records. */
  set(list: string, query: string, count: number, body: string): void {
    if (this.budget === 0 || count === 0) return;
    const key = keyOf(list, query);
    this.pages.set(key, body, 2 * (key.length + body.length) + ENTRY_BYTES);
  }
}

/** No list's name holds a `?`. */
const keyOf = (list: string, query: string) => `${list}?${query}`;
