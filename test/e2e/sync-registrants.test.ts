import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer, type Answerer } from '../../src/answer/answerer.ts';
import { build } from '../../src/build.ts';
import { bundleFolderReader } from '../../src/built-folder.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import type { SyncOptions } from '../../src/sync/sync-options.ts';
import { sync } from '../../src/sync/sync.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { startTestUpstream, type TestUpstream } from '../support/test-upstream.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The registrants list through sync and build (contract section 10, issue 40): an upstream whose
 * `/api/v1/registrants/` lists registrants that no client embeds, synced into `registrants.ndjson`
 * beside the clients, built, and answered; a night's changed registrant fetched by the incremental
 * walk (by `-dt_updated`), not the whole list again.
 */
const temp = tempFolder('mirror-sync-registrants-');
const CLIENTS = readFileSync(path.join(setFolder('synthetic-1k'), 'input.ndjson'), 'utf8');
const first = JSON.parse(CLIENTS.split('\n')[0]!) as { registrant: Record<string, unknown> };

/** A registrant no client embeds: the first client's registrant under another id, name and time. */
function unembedded(id: number, name: string, updated: string): Record<string, unknown> {
  return { ...first.registrant, id, url: `https://lda.senate.gov/api/v1/registrants/${id}/?format=api`, name, dt_updated: updated };
}

/** An upstream's input: the set's clients and a registrants file; built and served as the live service. */
async function upstreamFolder(name: string, registrants: Record<string, unknown>[]): Promise<string> {
  const input = path.join(temp.path, `${name}-input`);
  mkdirSync(input, { recursive: true });
  writeFileSync(path.join(input, 'clients.ndjson'), CLIENTS);
  writeFileSync(path.join(input, 'registrants.ndjson'), registrants.map((registrant) => JSON.stringify(registrant)).join('\n'));
  const out = path.join(temp.path, name);
  await build(resolveBuildOptions({ input: [input], out, baseUrl: CONFORMANCE_BASE_URL }));
  return out;
}

async function answererOf(input: string[], name: string): Promise<Answerer> {
  const out = path.join(temp.path, name);
  await build(resolveBuildOptions({ input, out, baseUrl: CONFORMANCE_BASE_URL }));
  return createAnswerer(bundleFolderReader(out));
}

const options = (out: string, upstream: string, mode: SyncOptions['mode']): SyncOptions => ({
  upstream,
  out,
  rate: 60_000,
  concurrency: 4,
  mode,
  maxTries: 3,
  backoffMs: 50,
  timeoutMs: 10_000,
});

const count = async (answerer: Answerer, target: string) => (JSON.parse((await answerer.answer('GET', target)).body) as { count: number }).count;

let upstream: TestUpstream;
let embedded: number;
const synced = () => path.join(temp.path, 'synced');

beforeAll(async () => {
  const ids = new Set(CLIENTS.split('\n').filter((line) => line.trim() !== '').map((line) => (JSON.parse(line) as { registrant: { id: number } }).registrant.id));
  embedded = ids.size;
  upstream = await startTestUpstream(await upstreamFolder('upstream', [unembedded(901, 'QUIETWATER ASSOCIATES', '2020-01-02T03:04:05.123456-05:00'), unembedded(902, 'LONE STRATEGIES LLC', '2021-05-06T07:08:09-04:00')]));
}, 120_000);
afterAll(async () => {
  await upstream.stop();
  temp.remove();
});

describe('sync of the registrants list', () => {
  it('saves every registrant of the upstream list, and the build lists those no client embeds', async () => {
    const summary = await sync(options(synced(), upstream.url, 'full'));
    expect(summary.registrants).toMatchObject({ mode: 'full', records: embedded + 2 });
    const registrantRequests = upstream.log.filter((request) => request.target.startsWith('/api/v1/registrants/'));
    expect(registrantRequests.length).toBe(Math.ceil((embedded + 2) / 25));
    const lines = readFileSync(path.join(synced(), 'registrants.ndjson'), 'utf8').split('\n').filter((line) => line !== '');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(expect.arrayContaining([901, 902]));

    const mirror = await answererOf([synced()], 'mirror');
    expect(await count(mirror, '/api/v1/registrants/')).toBe(embedded + 2);
    const found = JSON.parse((await mirror.answer('GET', '/api/v1/registrants/?registrant_name=quietwater')).body) as { count: number; results: { id: number }[] };
    expect(found).toMatchObject({ count: 1, results: [{ id: 901 }] });
    const record = await mirror.answer('GET', '/api/v1/registrants/902/');
    expect(record.status).toBe(200);
    expect(JSON.parse(record.body)).toMatchObject({ id: 902, url: `${CONFORMANCE_BASE_URL}/api/v1/registrants/902/`, name: 'LONE STRATEGIES LLC' });
    // The same registrant as the upstream answers it: the bytes of its record.
    expect(record.body).toBe((await createAnswerer(bundleFolderReader(path.join(temp.path, 'upstream'))).answer('GET', '/api/v1/registrants/902/')).body);
  });

  it('without a registrants file, the list holds the registrants the clients embed', async () => {
    const clientsOnly = await answererOf([path.join(synced(), 'clients.ndjson')], 'clients-only');
    expect(await count(clientsOnly, '/api/v1/registrants/')).toBe(embedded);
    expect((await clientsOnly.answer('GET', '/api/v1/registrants/902/')).status).toBe(404);
    expect(await count(clientsOnly, '/api/v1/registrants/?registrant_name=quietwater')).toBe(0);
  });

  it('an incremental sync fetches the changed and new registrants only, by -dt_updated', async () => {
    await upstream.serve(
      await upstreamFolder('upstream-next', [
        unembedded(901, 'QUIETWATER ASSOCIATES GROUP', '2030-01-02T03:04:05-05:00'),
        unembedded(902, 'LONE STRATEGIES LLC', '2021-05-06T07:08:09-04:00'),
        unembedded(903, 'NEWCOMER PARTNERS', '2030-01-03T00:00:00Z'),
      ]),
    );
    const before = upstream.log.length;
    const summary = await sync(options(synced(), upstream.url, 'incremental'));
    expect(summary.registrants).toMatchObject({ mode: 'incremental', records: embedded + 3, added: 1, pagesFetched: 1 });
    const walked = upstream.log.slice(before).filter((request) => request.target.startsWith('/api/v1/registrants/'));
    expect(walked.map((request) => request.target)).toEqual(['/api/v1/registrants/?ordering=-dt_updated']);

    const mirror = await answererOf([synced()], 'mirror-next');
    expect(await count(mirror, '/api/v1/registrants/')).toBe(embedded + 3);
    expect(await count(mirror, '/api/v1/registrants/?registrant_name=ASSOCIATES+GROUP')).toBe(1);
    expect(await count(mirror, '/api/v1/registrants/?dt_updated_after=2029-12-31')).toBe(2);
  });
});
