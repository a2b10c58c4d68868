import { CLIENT_PATH_PREFIX, LIST_PATH, PAGE_SIZE, REGISTRANT_PATH_PREFIX } from '../../src/contract.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import { commonest, pairsOf, wordsOf } from '../../src/warm-up/common-pieces.ts';
import type { InputClient } from './input-clients.ts';

/**
 * One request of each kind of issue 39 point 1, as a fresh instance meets it first. The values come
 * from the bench's input, each by a rule (no random draw), so that two runs and two programs ask the
 * same: the middle client by id for the record, the registrant, the whole name and the state; the
 * word that the most names hold, and the two letters that the most names hold, for the searches.
 */
export interface FirstRequest {
  kind: string;
  target: string;
  /** The clients it lists (a list or a search), counted here from the input; undefined for a record. */
  count?: number;
}

export function firstRequests(clients: readonly InputClient[]): FirstRequest[] {
  const byId = [...clients].sort((a, b) => a.id - b.id);
  const names = byId.map((client) => searchText(client.name));
  // The middle client with a state: its state goes with the registrant_name search.
  const middleAt = Math.floor(byId.length / 2);
  const middle = byId.slice(middleAt).find((client) => client.state !== null) ?? byId[middleAt]!;
  const deepPage = Math.max(1, Math.ceil(Math.ceil(byId.length / PAGE_SIZE) / 2));
  const word = commonest(names, wordsOf);
  const pair = commonest(names, pairsOf);
  const holding = (text: string) => names.filter((name) => name.includes(text)).length;
  const registrantName = searchText(middle.registrant.name);
  const ofRegistrant = byId.filter((client) => client.state === middle.state && searchText(client.registrant.name).includes(registrantName)).length;
  const search = (value: string) => encodeURIComponent(value);
  return [
    { kind: 'list page (page 1, no parameter)', target: LIST_PATH, count: byId.length },
    { kind: `deep page in -name (page ${deepPage}, the middle)`, target: `${LIST_PATH}?ordering=-name&page=${deepPage}`, count: byId.length },
    { kind: `deep page in -effective_date (page ${deepPage})`, target: `${LIST_PATH}?ordering=-effective_date&page=${deepPage}`, count: byId.length },
    { kind: `two orderings combined (-effective_date,name, page ${deepPage})`, target: `${LIST_PATH}?ordering=-effective_date,name&page=${deepPage}`, count: byId.length },
    { kind: `client record (the middle id, ${middle.id})`, target: `${CLIENT_PATH_PREFIX}${middle.id}/` },
    { kind: `registrant record (${middle.registrant.id}, the middle client's)`, target: `${REGISTRANT_PATH_PREFIX}${middle.registrant.id}/` },
    { kind: `search, the word the most names hold (${word})`, target: `${LIST_PATH}?client_name=${search(word)}`, count: holding(word) },
    { kind: `search, a whole name (the middle client's)`, target: `${LIST_PATH}?client_name=${search(middle.name)}`, count: holding(searchText(middle.name)) },
    { kind: `search, two letters (${pair}, the pair the most names hold)`, target: `${LIST_PATH}?client_name=${pair}`, count: holding(pair) },
    {
      kind: `registrant_name (the middle client's registrant) with client_state=${middle.state}`,
      target: `${LIST_PATH}?registrant_name=${search(middle.registrant.name)}&client_state=${middle.state}`,
      count: ofRegistrant,
    },
    { kind: `search in name order, page 3 (${word})`, target: `${LIST_PATH}?client_name=${search(word)}&ordering=name&page=3`, count: holding(word) },
  ];
}
