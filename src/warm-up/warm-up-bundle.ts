import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WarmUpBundle } from '../answer/warm-up.ts';
import { API_HEADERS, CLIENT_PATH_PREFIX, LIST_PATH, REGISTRANT_PATH_PREFIX, REGISTRANT_PATH_PREFIX as REGISTRANTS_PATH } from '../contract.ts';
import { nameInBundle } from '../bundle/content-names.ts';
import { searchText } from '../bundle/search-text.ts';
import { filterChoices } from '../choices/filter-choices.ts';
import { storeRow } from '../ingest/load-records.ts';
import { clientRow } from '../ingest/read-client-rows.ts';
import { validateClient, type ValidClient } from '../ingest/validate-record.ts';
import { bundleFiles } from '../render/bundle-files.ts';
import { RecordStore } from '../store/record-store.ts';
import { commonest, pairsOf, wordsOf } from './common-pieces.ts';

/**
 * The warm-up bundle a program carries (answer/warm-up.ts): the query bundle of the sample's first
 * clients, rendered by the build's own code into memory when the program is bundled, and one request
 * of each kind the bench measures, picked from those clients by the bench's rules (the commonest word
 * and pair of letters, a whole name, a registrant with a state). Small (24 clients: about 90 KB in the
 * program), so that startup stays far inside a platform's limit.
 */
const SAMPLE = fileURLToPath(new URL('../../data/lda-real-clients.ndjson', import.meta.url));
const CLIENTS = 24;
/** Pages small enough that the sample has a second, third and last one. */
const PAGE = 'page=2&page_size=5';

export function warmUpBundle(): WarmUpBundle {
  const clients = sampleClients();
  const folder = mkdtempSync(path.join(tmpdir(), 'lda-warm-up-'));
  const store = RecordStore.create(path.join(folder, 'store.sqlite'));
  try {
    store.transaction(() => clients.forEach((client) => storeRow(store, clientRow(client))));
    store.index();
    const files: Record<string, string> = {};
    const choices = { states: filterChoices('client_state')!, countries: filterChoices('client_country')! };
    for (const file of bundleFiles(store.bundleRows(), { baseUrl: 'https://warm-up.invalid', headers: API_HEADERS, formats: [''], choices })) {
      files[nameInBundle(file)] = Buffer.from(file.data).toString('base64');
    }
    return { files, targets: warmUpTargets(clients) };
  } finally {
    store.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

function sampleClients(): ValidClient[] {
  const lines = readFileSync(SAMPLE, 'utf8').split('\n').slice(0, CLIENTS);
  return lines.map((line, i) => {
    const validation = validateClient(JSON.parse(line), { file: SAMPLE, line: i + 1 });
    if (!validation.ok) throw new Error(`${SAMPLE}:${i + 1}: ${validation.problems.map((problem) => problem.message).join('; ')}`);
    return validation.client;
  });
}

function warmUpTargets(clients: readonly ValidClient[]): string[] {
  const client = clients.find((one) => typeof one.record.state === 'string')!;
  const names = clients.map((one) => searchText(one.name));
  const word = commonest(names, wordsOf);
  const pair = commonest(names, pairsOf);
  const registrantWord = commonest(
    clients.map((one) => searchText(String(one.registrant.name))),
    wordsOf,
  );
  const state = String(client.record.state);
  const search = encodeURIComponent;
  return [
    LIST_PATH,
    `${LIST_PATH}?ordering=-name&${PAGE}`,
    `${LIST_PATH}?ordering=-effective_date&${PAGE}`,
    `${LIST_PATH}?ordering=-effective_date,name&${PAGE}`,
    `${CLIENT_PATH_PREFIX}${client.id}/`,
    `${REGISTRANT_PATH_PREFIX}${client.registrantId}/`,
    `${LIST_PATH}?client_name=${search(word)}`,
    `${LIST_PATH}?client_name=${search(client.name)}`,
    `${LIST_PATH}?client_name=${pair}`,
    `${LIST_PATH}?registrant_name=${search(String(client.registrant.name))}&client_state=${state}`,
    `${LIST_PATH}?client_name=${search(word)}&ordering=name&page=2&page_size=2`,
    REGISTRANTS_PATH,
    `${REGISTRANTS_PATH}?${PAGE}`,
    `${REGISTRANTS_PATH}?ordering=name,-dt_updated&${PAGE}`,
    `${REGISTRANTS_PATH}?registrant_name=${search(registrantWord)}`,
    `${REGISTRANTS_PATH}?registrant_name=${search(registrantWord)}&state=${state}&country=US&dt_updated_after=2020-01-01&ordering=name,-dt_updated`,
  ];
}
