import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FILTER_NAMES } from '../../src/contract.ts';
import { filterChoices } from '../../src/choices/filter-choices.ts';
import { nginx } from '../../src/hosts/nginx/nginx.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { createRewriteMap } from '../../src/plan/rewrite-map-builder.ts';
import { differences, expectedExchange, type Probe } from '../support/host-behaviours.ts';
import { hostSuite, type ServedSet } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';
import { startNginx } from '../support/real-servers.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * nginx for real: the shared suite, the edge requests, and the spellings of filter values it reads.
 * Its one gap (filter spellings) costs no conformance case: the floor is every case.
 */
const driver = { ...realServerDriver(nginx, 'nginx', startNginx), passesAtLeast: { 'lda-real': 309, 'synthetic-1k': 399, 'filters-3k': 657 } };

hostSuite(driver, (served) => {
  realServerEdges(served);
  filterValues(served);
});

const list = (query: string): Probe => ({ method: 'GET', target: `/api/v1/clients/?${query}` });

/**
 * Spellings of filter values nginx reads as the preview does (lda-real: registrant 401105130 has one
 * client, client_country=US three pages): those contract section 8 asks of a host that rewrites by
 * rules (leading zeros, a sign, `.` and digits, percent-encoded letters and digits, any invalid
 * choice of letters and digits), and what its rules read beyond them (white space and `_` around and
 * inside a number, choices with `-._~`, more than 16 significant digits).
 */
const READ_EXACTLY = [
  'registrant_id=%34%30%31%31%30%35%31%33%30',
  'registrant_id=%2b0401105130.9&page=last',
  'registrant_id=-401105130&page=last',
  'registrant_id=%2D0.5',
  'registrant_id=.5',
  'registrant_id=0%2E',
  'registrant_id=-',
  'registrant_id=%2B',
  'registrant_id=.',
  'registrant_id=1234567890123456',
  'registrant_id=12345678901234567',
  'registrant_id=99999999999999999999&page=2',
  'registrant_id=-12345678901234567&page=last',
  'registrant_id=401105130&page=02',
  'registrant_id=401105130&page=2',
  'registrant_id=+401105130+',
  'registrant_id=%E3%80%80401105130%0A',
  'registrant_id=_4_0_1_105_130_.9_',
  'registrant_id=4%200',
  'registrant_id=+',
  'client_state=%54%58',
  'client_state=T%78&ordering=-id',
  'client_state=%74%78',
  'client_state=Tx',
  'client_state=%41%42%43%44%45%46%47%48%49%4A%4B%4C%4D%4E%4F%50',
  'client_state=T.X',
  'client_state=t~x-_',
  'client_country=us',
  'client_country=%55%53&page=last&ordering=-name',
  'client_country=U%53&page=3&format=json',
  'client_country=00&page=last',
  'client_country=00&page=2',
  `client_country=${'Z'.repeat(300)}`,
  'client_country=US&client_state=&registrant_id=',
].map(list);

/** Spellings beyond nginx's rules: answered as the preview, or with the filter's 400 naming the parameter. */
const BEYOND_RULES = [
  'registrant_id=4.01105130e8',
  'registrant_id=1e999999',
  'registrant_id=%D9%A7',
  'client_state=t%22x',
  'client_state=T%C3%A9xas',
  'client_country=U+S',
  'client_state=%41%42%43%44%45%46%47%48%49%4A%4B%4C%4D%4E%4F%50%51',
].map(list);

function filterValues(served: (set: string) => ServedSet): void {
  describe('filter values, as nginx reads them', () => {
    it.each(READ_EXACTLY.map((probe) => [probe.target, probe] as const))('%s: as the preview', async (_target, probe) => {
      const { url, map, dir } = served('lda-real');
      const actual = await sendRaw(url, probe.method, probe.target);
      expect(differences('filters', probe, expectedExchange(map, dir, probe), actual)).toEqual([]);
    });

    it.each(BEYOND_RULES.map((probe) => [probe.target, probe] as const))('%s: as the preview, or a 400 naming the filter', async (_target, probe) => {
      const { url, map, dir } = served('lda-real');
      const actual = await sendRaw(url, probe.method, probe.target);
      if (differences('filters', probe, expectedExchange(map, dir, probe), actual).length === 0) return;
      const param = new URLSearchParams(probe.target.split('?')[1]).keys().next().value!;
      expect(actual.status).toBe(400);
      expect(Object.keys(JSON.parse(actual.body.toString()))).toEqual([param]);
    });
  });
}

describe('nginx: the configuration of a big build', () => {
  const temp = tempFolder('mirror-nginx-size-');
  afterAll(() => temp.remove());

  /** A map like a build of `clients` records with all five filters, `multiPage` registrants having more than one page. */
  function bigMap(multiPage: number): RewriteMap {
    let seed = 42;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const ids = new Set<number>();
    while (ids.size < multiPage) ids.add(100_000_000 + (next() % 900_000_000));
    const registrants = Object.fromEntries([...ids].map((id) => [String(id), 2 + (next() % 40)]));
    const filters = FILTER_NAMES.map((name) => {
      const choices = filterChoices(name);
      return { name, choices, lastPages: choices === undefined ? registrants : Object.fromEntries(choices.slice(0, 40).map((value, i) => [value, 2 + i])) };
    });
    return createRewriteMap({ baseUrl: 'https://lda.example.org', formats: ['', 'api', 'json'], clients: 1_347_190, registrants: 40_000, filters });
  }

  const emit = (map: RewriteMap) => nginx.emit({ map, dir: temp.path, listen: { address: '127.0.0.1', port: 8080 } })[0]!.text;

  it('grows by one line for each value whose list has more than one page, and no other', () => {
    const lines = (map: RewriteMap) => emit(map).split('\n').length;
    expect(lines(bigMap(9_000)) - lines(bigMap(10))).toBe(9_000 - 10);
  });

  it('passes nginx -t without a warning, thousands of last pages and all', () => {
    const site = path.join(temp.path, 'lda-mirror.conf');
    writeFileSync(site, emit(bigMap(9_000)));
    const conf = path.join(temp.path, 'nginx.conf');
    writeFileSync(conf, `pid ${path.join(temp.path, 'nginx.pid')};\nerror_log stderr;\nevents {}\nhttp {\n    include /etc/nginx/mime.types;\n    include ${site};\n}\n`);
    const test = spawnSync('nginx', ['-t', '-c', conf, '-p', `${temp.path}/`], { encoding: 'utf8' });
    expect(test.status, test.stderr).toBe(0);
    expect(test.stderr.split('\n').filter((line) => /\[(warn|emerg|alert)\]/.test(line))).toEqual([]);
  });
});
