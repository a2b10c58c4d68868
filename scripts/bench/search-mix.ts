import { LIST_PATH } from '../../src/contract.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import { stripPython } from '../../src/routing/python-text.ts';
import type { InputClient } from './input-clients.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * The searches real programs send (issue 31: 11 of 18 programs that call the live service search by
 * `client_name`, with `page_size` 25 or 100, and follow `next`), drawn from the bench's own input so
 * that they find what a user would find: a substring of a client's name, 3 to 12 characters, each in
 * a random case; a third of them with that client's `client_state` (when it has one); an ordering of
 * none, `-name`, `-effective_date`, `-id`, `name` or `-name,id`; `page_size` 10, 25 or 100.
 *
 * Each search is asked as a program following `next` asks it: page 1, then page 2 when there is one,
 * then the last page when it is another. So every request of the mix is answered with a 200, and a
 * result cache (as deployed) answers the later pages of a search from its first.
 */
export interface MixRequest {
  target: string;
  /** The clients the search matches, counted here from the input: the answer must say as many. */
  count: number;
}

export interface SearchMix {
  /** The measured requests, about `size` of them. */
  requests: MixRequest[];
  /** As many others, from another seed: answered first, untimed, so that the code is compiled and the bundle read. */
  warmUp: MixRequest[];
  /** The heaviest kind, one page each: a state, a date ordering, the last page, `page_size` 100. */
  heaviest: MixRequest[];
  /** Issue 31 point 5: what no program sends. */
  hostile: { name: string; target: string }[];
}

const ORDERINGS = ['', '-name', '-effective_date', '-id', 'name', '-name,id'];
const PAGE_SIZES = [10, 25, 100];
/** DRF's `max_page_size`: a larger `page_size` is 25. */
const MAX_PAGE_SIZE = 25;

export function searchMix(clients: readonly InputClient[], size = 1000, heaviest = 50): SearchMix {
  const names = clients.map((client) => searchText(client.name));
  const search = searcher(clients, names);
  const requests = (seed: number) => {
    const random = seededRandom(seed);
    const found: MixRequest[] = [];
    while (found.length < size) {
      const drawn = search(random, { withState: random(3) === 0, ordering: ORDERINGS[random(ORDERINGS.length)]!, pageSize: PAGE_SIZES[random(PAGE_SIZES.length)]! });
      found.push(...drawn.pages([1, 2, drawn.last]));
    }
    return found.slice(0, size);
  };
  const random = seededRandom(3);
  const heavy = Array.from({ length: heaviest }, (_, i) => {
    const drawn = search(random, { withState: true, ordering: i % 2 === 0 ? '-effective_date' : 'effective_date', pageSize: 100 });
    return drawn.pages([drawn.last])[0]!;
  });
  return { requests: requests(1), warmUp: requests(2), heaviest: heavy, hostile: hostileRequests(clients, names) };
}

interface SearchKind {
  withState: boolean;
  ordering: string;
  pageSize: number;
}

/** Draws one search of a kind, and makes the targets of its pages. */
function searcher(clients: readonly InputClient[], names: readonly string[]) {
  const withStates = clients.flatMap((client, i) => (client.state === null ? [] : [i]));
  return (random: (n: number) => number, kind: SearchKind) => {
    const pool = kind.withState && withStates.length > 0 ? withStates : undefined;
    const i = pool === undefined ? random(clients.length) : pool[random(pool.length)]!;
    const value = substringOf(clients[i]!.name, random);
    const state = pool === undefined ? undefined : clients[i]!.state!;
    const wanted = searchText(value);
    let count = 0;
    for (let j = 0; j < names.length; j++) if (names[j]!.includes(wanted) && (state === undefined || clients[j]!.state === state)) count++;
    const last = Math.max(1, Math.ceil(count / Math.min(kind.pageSize, MAX_PAGE_SIZE)));
    const target = (page: number) => {
      const query = [`client_name=${encodeURIComponent(value)}`];
      if (state !== undefined) query.push(`client_state=${state}`);
      if (kind.ordering !== '') query.push(`ordering=${kind.ordering}`);
      if (page > 1) query.push(`page=${page}`);
      query.push(`page_size=${kind.pageSize}`);
      return `${LIST_PATH}?${query.join('&')}`;
    };
    return { last, pages: (pages: number[]) => [...new Set(pages.filter((page) => page <= last))].map((page) => ({ target: target(page), count })) };
  };
}

/**
 * 3 to 12 characters of a name (all of it when shorter), each upper- or lower-case at random, as a
 * user types them; without the spaces at its ends, which the form strips.
 */
function substringOf(name: string, random: (n: number) => number): string {
  const points = Array.from(name);
  for (;;) {
    const length = Math.min(points.length, 3 + random(10));
    const start = random(points.length - length + 1);
    const picked = points.slice(start, start + length).map((point) => (random(2) === 0 ? point.toLowerCase() : point.toUpperCase()));
    const value = stripPython(picked.join(''));
    if (Array.from(value).length >= Math.min(3, points.length)) return value;
  }
}

/**
 * Issue 31 point 5, each with a search where it can carry one: a 10,000-character name (a real name
 * repeated, so that its trigrams are common ones); 1,000 query fields; a 100 kB query string;
 * percent sequences that are not UTF-8; a NUL; the letter most names hold, last page in descending
 * name order.
 */
function hostileRequests(clients: readonly InputClient[], names: readonly string[]): SearchMix['hostile'] {
  const letter = commonestLetter(names).toLowerCase();
  const longName = clients[0]!.name.repeat(Math.ceil(10_000 / clients[0]!.name.length)).slice(0, 10_000);
  const fields = Array.from({ length: 998 }, (_, i) => `p${i}=${i}`).join('&');
  return [
    { name: 'a client_name of 10,000 characters (a real name repeated)', target: `${LIST_PATH}?client_name=${encodeURIComponent(longName)}` },
    { name: `1,000 query fields (998 unknown, client_name=${letter}, page=2)`, target: `${LIST_PATH}?${fields}&client_name=${letter}&page=2` },
    { name: `a 100 kB query string (client_name=${letter}, page=2, a 100,000-character unknown field)`, target: `${LIST_PATH}?client_name=${letter}&page=2&junk=${'x'.repeat(100_000)}` },
    { name: 'percent sequences that are not UTF-8 (client_name=%ff%C3&x=%E2%9C)', target: `${LIST_PATH}?client_name=%ff%C3&x=%E2%9C` },
    { name: 'a NUL in client_name (client_name=%00b)', target: `${LIST_PATH}?client_name=%00b` },
    { name: `the letter most names hold (client_name=${letter}&ordering=-name&page=last)`, target: `${LIST_PATH}?client_name=${letter}&ordering=-name&page=last` },
  ];
}

/** The letter A to Z that the most names hold. */
function commonestLetter(names: readonly string[]): string {
  let best = 'E';
  let bestCount = -1;
  for (let code = 65; code <= 90; code++) {
    const letter = String.fromCharCode(code);
    const count = names.reduce((sum, name) => sum + (name.includes(letter) ? 1 : 0), 0);
    if (count > bestCount) [best, bestCount] = [letter, count];
  }
  return best;
}
