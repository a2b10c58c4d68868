import { PAGE_SIZE, REGISTRANT_PATH_PREFIX as REGISTRANTS_PATH } from '../../src/contract.ts';
import { commonest, wordsOf } from '../../src/warm-up/common-pieces.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import type { FirstRequest } from './first-requests.ts';
import type { InputClient } from './input-clients.ts';

/**
 * The registrants list's kinds of first request (issue 40: the same budgets as the clients'), chosen
 * from the bench's input by rule as first-requests.ts chooses the clients': the list's first page,
 * its middle page, that page in `name,-dt_updated`, `registrant_name` with the word of three letters
 * or more the most registrant names hold, and that word with the state and country the most of its
 * registrants have and `dt_updated_after` the middle registrant's day, in `name,-dt_updated`.
 */
export function firstRegistrantRequests(clients: readonly InputClient[]): FirstRequest[] {
  const registrants = servedRegistrants(clients);
  const names = registrants.map((registrant) => searchText(registrant.name));
  const total = registrants.length;
  const middlePage = Math.max(1, Math.ceil(Math.ceil(total / PAGE_SIZE) / 2));
  const word = commonest(names, wordsOf);
  const named = registrants.filter((_, i) => names[i]!.includes(word));
  const state = commonest(named, (registrant) => (typeof registrant.state === 'string' ? [registrant.state] : []));
  const country = commonest(named, (registrant) => (typeof registrant.country === 'string' ? [registrant.country] : []));
  const instants = registrants.map((registrant) => instantOf(registrant.dt_updated)).filter((instant) => !Number.isNaN(instant)).sort((a, b) => a - b);
  const day = new Date(instants[Math.floor(instants.length / 2)] ?? 0).toISOString().slice(0, 10);
  // Midnight UTC, with its offset: the instant is the same whatever time zone reads it.
  const after = `${day}T00:00:00Z`;
  const four = named.filter((registrant) => registrant.state === state && registrant.country === country && instantOf(registrant.dt_updated) >= Date.parse(after)).length;
  return [
    { kind: 'registrants list page (page 1, no parameter)', target: REGISTRANTS_PATH, count: total },
    { kind: `registrants deep page (page ${middlePage}, the middle)`, target: `${REGISTRANTS_PATH}?page=${middlePage}`, count: total },
    { kind: `registrants in name,-dt_updated (page ${middlePage})`, target: `${REGISTRANTS_PATH}?ordering=name,-dt_updated&page=${middlePage}`, count: total },
    { kind: `registrant_name, the word the most registrant names hold (${word})`, target: `${REGISTRANTS_PATH}?registrant_name=${word}`, count: named.length },
    {
      kind: `registrants: ${word}, state ${state}, country ${country}, dt_updated_after ${day}, in name,-dt_updated`,
      target: `${REGISTRANTS_PATH}?registrant_name=${word}&state=${state}&country=${country}&dt_updated_after=${encodeURIComponent(after)}&ordering=name,-dt_updated`,
      count: four,
    },
  ];
}

type Registrant = InputClient['registrant'];

/** Each registrant once, as the build serves it: the copy with the latest dt_updated, ties to the later copy. */
export function servedRegistrants(clients: readonly InputClient[]): Registrant[] {
  const served = new Map<number, Registrant>();
  for (const { registrant } of clients) {
    const earlier = served.get(registrant.id);
    if (earlier === undefined || orderOf(registrant) >= orderOf(earlier)) served.set(registrant.id, registrant);
  }
  return [...served.values()].sort((a, b) => a.id - b.id);
}

/** None is the oldest. */
const orderOf = (registrant: Registrant) => (typeof registrant.dt_updated === 'string' ? Date.parse(registrant.dt_updated) : -Infinity);

/** An instant in milliseconds (microseconds cut off: the bound the requests use is a whole second); NaN when none. */
function instantOf(value: string | null | undefined): number {
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}
