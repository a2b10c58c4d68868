import { describe, expect, it } from 'vitest';
import { searchText } from '../../src/bundle/search-text.ts';
import { firstRegistrantRequests } from '../../scripts/bench/first-registrant-requests.ts';
import { firstRequests } from '../../scripts/bench/first-requests.ts';
import type { InputClient } from '../../scripts/bench/input-clients.ts';
import { memorySequence } from '../../scripts/bench/memory-sequence.ts';
import { registrantMix } from '../../scripts/bench/registrant-mix.ts';
import { searchMix } from '../../scripts/bench/search-mix.ts';

/** The bench's requests of issue 39 (first answers, memory sequence), chosen from its input by rule. */
const NAMES = ['ACME WATER ASSOCIATION', 'NATIONAL ASSOCIATION OF MILLERS', 'BETA HEALTH INC', 'CITY OF SPRINGFIELD', 'AMERICAN WATER WORKS ASSOCIATION'];
const clients: InputClient[] = Array.from({ length: 200 }, (_, i) => ({
  id: 1000 + i,
  name: `${NAMES[i % NAMES.length]} ${i}`,
  state: i % 3 === 0 ? null : ['CA', 'NY'][i % 2]!,
  registrant: { id: 50 + (i % 7), name: `REGISTRANT ${i % 7} LLC` },
}));
const holding = (value: string) => clients.filter((client) => searchText(client.name).includes(searchText(value))).length;
const valueOf = (target: string, field: string) => new URLSearchParams(target.split('?')[1]).get(field)!;

describe('first requests', () => {
  const requests = firstRequests(clients);

  it('asks one request of each kind of issue 39, the same each time', () => {
    expect(requests).toHaveLength(11);
    expect(firstRequests([...clients].reverse())).toEqual(requests);
  });

  it('searches the word and the pair of letters that the most names hold, and counts their matches', () => {
    const word = requests.find((request) => request.kind.startsWith('search, the word'))!;
    expect(valueOf(word.target, 'client_name')).toBe('ASSOCIATION');
    expect(word.count).toBe(holding('ASSOCIATION'));
    const pair = requests.find((request) => request.kind.startsWith('search, two letters'))!;
    const letters = valueOf(pair.target, 'client_name');
    expect(letters).toMatch(/^[A-Z]{2}$/);
    for (const other of ['AT', 'ER', 'ON']) expect(holding(letters)).toBeGreaterThanOrEqual(holding(other));
  });

  it('takes the record and the registrant of the middle client with a state', () => {
    const record = requests.find((request) => request.kind.startsWith('client record'))!;
    expect(record.target).toBe('/api/v1/clients/1100/');
    const registrant = requests.find((request) => request.kind.startsWith('registrant_name'))!;
    expect(valueOf(registrant.target, 'client_state')).toBe('CA');
    expect(registrant.count).toBe(clients.filter((client) => client.state === 'CA' && client.registrant.id === clients[100]!.registrant.id).length);
  });
});

describe('first requests to the registrants list', () => {
  // Seven registrants, each embedded by many clients; registrant 56 in two copies, the later one newer.
  const embedding: InputClient[] = clients.map((client, i) => ({
    ...client,
    registrant: {
      ...client.registrant,
      state: client.registrant.id % 2 === 0 ? 'DC' : 'VA',
      country: 'US',
      dt_updated: client.registrant.id === 56 && i > 100 ? '2024-06-01T10:00:00-04:00' : `202${client.registrant.id % 5}-01-15T10:00:00-05:00`,
    },
  }));
  const requests = firstRegistrantRequests(embedding);

  it('asks five kinds, the same each time, each counting the registrants as the build serves them', () => {
    expect(requests.map((request) => request.target)).toEqual([
      '/api/v1/registrants/',
      '/api/v1/registrants/?page=1',
      '/api/v1/registrants/?ordering=name,-dt_updated&page=1',
      '/api/v1/registrants/?registrant_name=LLC',
      // The middle instant is registrant 52's (2022-01-15); of those in DC (50, 52, 54, 56), 52, 54 and 56 (its newer copy, 2024) are updated since that day began.
      '/api/v1/registrants/?registrant_name=LLC&state=DC&country=US&dt_updated_after=2022-01-15T00%3A00%3A00Z&ordering=name,-dt_updated',
    ]);
    expect(requests.map((request) => request.count)).toEqual([7, 7, 7, 7, 3]);
    expect(firstRegistrantRequests([...embedding].reverse())).toEqual(requests);
  });
});

describe('memory sequence', () => {
  const sequence = memorySequence(clients, searchMix(clients, 20, 2), { empty: 300, matching: 50 });

  it('sends the mix as warm-up, then unique searches that match nothing, then unique searches that match', () => {
    const registrantRequests = sequence.warmUp.filter((target) => target.startsWith('/api/v1/registrants/') || target.includes('registrant_id='));
    expect(sequence.warmUp).toHaveLength(50);
    expect(registrantRequests).toHaveLength(10);
    expect(new Set(sequence.empty).size).toBe(300);
    for (const target of sequence.empty) expect(holding(valueOf(target, 'client_name'))).toBe(0);
    const values = sequence.matching.map((target) => valueOf(target, 'client_name'));
    expect(new Set(values).size).toBe(50);
    for (const value of values) expect(holding(value)).toBeGreaterThan(0);
  });
});

describe('registrant requests of the warm-up', () => {
  const targets = registrantMix(clients, 60);
  const registrantIds = new Set(clients.map((client) => client.registrant.id));

  it('searches registrant names by a piece of a name that some registrant holds, and follows the firm found', () => {
    expect(targets).toHaveLength(60);
    expect(registrantMix(clients, 60)).toEqual(targets);
    for (const target of targets) {
      const query = new URLSearchParams(target.split('?')[1] ?? '');
      const name = query.get('registrant_name');
      if (name !== null) expect(clients.some((client) => searchText(client.registrant.name).includes(searchText(name)))).toBe(true);
      const id = query.get('registrant_id') ?? /^\/api\/v1\/registrants\/(\d+)\/$/.exec(target)?.[1];
      if (name === null) expect(registrantIds.has(Number(id))).toBe(true);
    }
    expect(targets.some((target) => target.includes('registrant_name='))).toBe(true);
    expect(targets.some((target) => target.includes('registrant_id='))).toBe(true);
  });
});

