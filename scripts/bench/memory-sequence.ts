import { LIST_PATH } from '../../src/contract.ts';
import { searchText } from '../../src/bundle/search-text.ts';
import type { InputClient } from './input-clients.ts';
import { registrantMix } from './registrant-mix.ts';
import type { SearchMix } from './search-mix.ts';
import { seededRandom } from './seeded-random.ts';

/**
 * Issue 39 point 3's sequence of requests, all to one instance: a warm-up of real programs'
 * requests (the search mix's 2,000: its warm-up and measured requests; and, issue 40, 500 requests
 * about registrants, registrant-mix.ts, one after every four others), then `empty` unique searches
 * that match nothing, then `matching` unique searches that match. A search matches nothing when it
 * holds three letters that no name holds; one matches when it is a piece of a name (3 to 12
 * characters, page 1, no other parameter), each piece once, upper-cased as the answerer compares it.
 */
export interface MemorySequence {
  warmUp: string[];
  empty: string[];
  matching: string[];
}

export function memorySequence(clients: readonly InputClient[], mix: SearchMix, sizes = { empty: 100_000, matching: 20_000 }): MemorySequence {
  const names = clients.map((client) => searchText(client.name));
  const absent = absentTrigram(names);
  const empty = Array.from({ length: sizes.empty }, (_, i) => `${LIST_PATH}?client_name=${absent}${i.toString(36).toUpperCase()}`);
  const random = seededRandom(39);
  const seen = new Set<string>();
  const matching: string[] = [];
  // Every piece of 3 to 12 characters of every name: far more than 20,000 unless the input is tiny.
  for (let tries = 0; matching.length < sizes.matching && tries < sizes.matching * 50; tries++) {
    const name = names[random(names.length)]!;
    const length = Math.min(name.length, 3 + random(10));
    const piece = name.slice(random(name.length - length + 1)).slice(0, length).trim();
    if (piece.length < 3 || seen.has(piece)) continue;
    seen.add(piece);
    matching.push(`${LIST_PATH}?client_name=${encodeURIComponent(piece)}`);
  }
  const clientRequests = [...mix.warmUp, ...mix.requests].map((request) => request.target);
  const registrantRequests = registrantMix(clients, Math.ceil(clientRequests.length / 4));
  const warmUp = clientRequests.flatMap((target, i) => (i % 4 === 3 && registrantRequests[(i - 3) / 4] !== undefined ? [target, registrantRequests[(i - 3) / 4]!] : [target]));
  return { warmUp, empty, matching };
}

/** Three letters A to Z together in no name: any search holding them matches nothing. */
function absentTrigram(names: readonly string[]): string {
  const all = names.join('\n');
  for (const first of 'QXZJ') for (const second of 'QXZJ') for (const third of 'QXZJKV') {
    const trigram = first + second + third;
    if (!all.includes(trigram)) return trigram;
  }
  throw new Error('memory sequence: every trigram of Q, X, Z, J, K, V is in some name');
}
