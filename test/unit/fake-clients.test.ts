import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it, expect } from 'vitest';
import { fakeClients, type FakeClientOptions } from '../../scripts/lib/fake-clients.ts';

type Registrant = Record<string, unknown> & { id: number };
type Client = Record<string, unknown> & { id: number; client_id: number; name: string; registrant: Registrant };

const take = (options: FakeClientOptions): Client[] => [...fakeClients(options)] as Client[];
const SAMPLE = take({ count: 20_000, seed: 42 });
const registrants = (clients: Client[]): Registrant[] => clients.map((c) => c.registrant);

const CLIENT_KEYS = ['id', 'url', 'client_id', 'name', 'general_description', 'client_government_entity',
  'client_self_select', 'state', 'state_display', 'country', 'country_display', 'ppb_state',
  'ppb_state_display', 'ppb_country', 'ppb_country_display', 'effective_date', 'registrant'];
const REGISTRANT_KEYS = ['id', 'url', 'house_registrant_id', 'name', 'description', 'address_1', 'address_2',
  'address_3', 'address_4', 'city', 'state', 'state_display', 'zip', 'country', 'country_display',
  'ppb_country', 'ppb_country_display', 'contact_name', 'contact_telephone', 'dt_updated'];

const fixture = (name: string): Map<string, string> => {
  const list = JSON.parse(readFileSync(new URL(`../../src/choices/${name}`, import.meta.url), 'utf8')) as
    { value: string; name: string }[];
  return new Map(list.map((entry) => [entry.value, entry.name]));
};
const STATES = fixture('lda-states.json');
const COUNTRIES = fixture('lda-countries.json');

const share = (clients: Client[], test: (client: Client) => boolean): number =>
  clients.filter(test).length / clients.length;

describe('fakeClients', () => {
  it('gives byte-identical records for the same options, other records for another seed', () => {
    const run = (seed: number) => take({ count: 2_000, seed }).map((c) => JSON.stringify(c)).join('\n');
    expect(run(7)).toBe(run(7));
    expect(run(8)).not.toBe(run(7));
  });

  it('makes a shorter run a prefix of a longer one', () => {
    expect(take({ count: 500, seed: 42 })).toEqual(SAMPLE.slice(0, 500));
  });

  it('writes client and registrant keys in the order of the live service', () => {
    const orders = (objects: object[]) => [...new Set(objects.map((o) => Object.keys(o).join(', ')))];
    expect(orders(SAMPLE)).toEqual([CLIENT_KEYS.join(', ')]);
    expect(orders(registrants(SAMPLE))).toEqual([REGISTRANT_KEYS.join(', ')]);
  });

  it('gives a registrant id the same content wherever it appears', () => {
    const bodies = new Map<number, Set<string>>();
    for (const registrant of registrants(SAMPLE)) {
      const seen = bodies.get(registrant.id) ?? new Set();
      bodies.set(registrant.id, seen.add(JSON.stringify(registrant)));
    }
    expect([...bodies.values()].filter((seen) => seen.size > 1)).toEqual([]);
  });

  it('shares registrants unevenly: a few with hundreds of clients, most with a handful', () => {
    const clientsOf = new Map<number, number>();
    for (const { id } of registrants(SAMPLE)) clientsOf.set(id, (clientsOf.get(id) ?? 0) + 1);
    const counts = [...clientsOf.values()].sort((a, b) => b - a);
    expect(counts.length).toBeLessThanOrEqual(Math.ceil(SAMPLE.length / 6));
    expect(counts.length).toBeGreaterThan(SAMPLE.length / 12);
    expect(counts[0]).toBeGreaterThan(300);
    expect(counts.filter((n) => n >= 100).length).toBeGreaterThanOrEqual(3);
    expect(counts[Math.floor(counts.length / 2)]).toBeLessThanOrEqual(10);
  });

  it('numbers clients upwards from firstId with gaps; client_id is its id or an earlier one', () => {
    expect(take({ count: 1, firstId: 5 })[0]?.id).toBe(5);
    expect(SAMPLE[0]?.id).toBe(300_000);
    const steps = SAMPLE.slice(1).map((client, index) => client.id - (SAMPLE[index] as Client).id);
    expect(steps.filter((step) => step < 1)).toEqual([]);
    expect(steps.filter((step) => step > 1).length).toBeGreaterThan(SAMPLE.length / 10); // gaps
    const ids = new Set(SAMPLE.map((c) => c.id));
    expect(SAMPLE.filter((c) => c.client_id > c.id || !ids.has(c.client_id))).toEqual([]);
    const api = 'https://lda.senate.gov/api/v1';
    expect(SAMPLE.filter((c) => c.url !== `${api}/clients/${c.id}/?format=api`
      || c.registrant.url !== `${api}/registrants/${c.registrant.id}/?format=api`)).toEqual([]);
    expect(share(SAMPLE, (c) => c.client_id === c.id)).toBeGreaterThan(0.8);
    expect(share(SAMPLE, (c) => c.client_id !== c.id)).toBeGreaterThan(0.05);
  });

  it('keeps client and registrant ids clear of the real records', () => {
    const real = readFileSync(new URL('../../data/lda-real-clients.ndjson', import.meta.url), 'utf8')
      .trim().split('\n').map((line) => JSON.parse(line) as Client);
    const [lowest, highest] = [(ids: number[]) => Math.min(...ids), (ids: number[]) => Math.max(...ids)];
    expect(lowest(SAMPLE.map((c) => c.id))).toBeGreaterThan(highest(real.map((c) => c.id)));
    expect(lowest(registrants(SAMPLE).map((r) => r.id))).toBeGreaterThan(highest(registrants(real).map((r) => r.id)));
  });

  it('displays states from the real list, null state as null', () => {
    const pairs = [
      ...SAMPLE.flatMap((c) => [[c.state, c.state_display], [c.ppb_state, c.ppb_state_display]]),
      ...registrants(SAMPLE).map((r) => [r.state, r.state_display]),
    ];
    const expected = (state: unknown) => (state === null ? null : STATES.get(state as string));
    expect(pairs.filter(([state, display]) => display !== expected(state))).toEqual([]);
    expect(share(SAMPLE, (c) => c.state === null)).toBeGreaterThan(0.01);
  });

  it('displays countries from the real list, the empty country as "* Undetermined", never "00"', () => {
    const pairs = [...SAMPLE, ...registrants(SAMPLE)].flatMap((o) => [
      [o.country, o.country_display],
      [o.ppb_country, o.ppb_country_display],
    ]);
    const expected = (code: unknown) => (code === '' ? '* Undetermined' : COUNTRIES.get(code as string));
    expect(pairs.filter(([code, display]) => code === '00' || display !== expected(code))).toEqual([]);
    expect(share(SAMPLE, (c) => c.country === 'US')).toBeGreaterThan(0.9);
    expect(share(SAMPLE, (c) => c.country === '')).toBeGreaterThan(0.002);
    expect(new Set(SAMPLE.map((c) => c.country)).size).toBeGreaterThan(50);
  });

  it('formats dates, timestamps, postcodes and telephones as the live service does', () => {
    const isDate = (value: unknown) =>
      typeof value === 'string' && /^\d{4}-\d\d-\d\d$/.test(value) && value >= '1999-01-01' && value <= '2026-12-31'
      && new Date(value).toISOString().startsWith(value);
    expect(SAMPLE.filter((c) => c.effective_date !== null && !isDate(c.effective_date))).toEqual([]);
    const nullDates = share(SAMPLE, (c) => c.effective_date === null);
    expect(nullDates).toBeGreaterThan(0.02);
    expect(nullDates).toBeLessThan(0.04);
    const wrong = registrants(SAMPLE).filter((r) =>
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}-0[45]:00$/.test(r.dt_updated as string)
      || (r.country === 'US' && r.zip !== null && !/^\d{5}(-\d{4})?$/.test(r.zip as string))
      || !/^(\+\d+ \d+-\d+-\d+)?$/.test(r.contact_telephone as string)
      || !(r.house_registrant_id === null || Number.isInteger(r.house_registrant_id))
      || !(Number.isInteger(r.id) && r.id > 0));
    expect(wrong).toEqual([]);
  });

  it('has the awkward values real data has', () => {
    const names = SAMPLE.map((c) => c.name);
    const some = (test: (name: string) => boolean) => expect(names.some(test)).toBe(true);
    expect(new Set(names).size).toBeLessThan(names.length); // duplicate names
    some((name) => /[éñü]/i.test(name));
    some((name) => /\p{Script=Han}/u.test(name));
    some((name) => name.includes('"'));
    some((name) => name.includes('&'));
    some((name) => name.includes("'"));
    some((name) => /[a-z]/.test(name)); // mixed case
    expect(share(SAMPLE, (c) => c.general_description === null)).toBeGreaterThan(0.02);
    for (const key of ['client_government_entity', 'client_self_select']) {
      expect(new Set(SAMPLE.map((c) => c[key]))).toEqual(new Set([true, false, null]));
    }
    const all = registrants(SAMPLE);
    for (const key of ['city', 'zip', 'address_2', 'description']) {
      expect(all.some((r) => r[key] === null)).toBe(true);
    }
    expect(all.some((r) => r.contact_telephone === '')).toBe(true);
  });

  it('streams 200,000 records without holding them', () => {
    let count = 0;
    for (const _ of fakeClients({ count: 200_000, seed: 3 })) count++;
    expect(count).toBe(200_000);
    // A run far too large to hold still yields its first records at once.
    const endless = fakeClients({ count: Number.MAX_SAFE_INTEGER });
    expect(endless.next().value).toEqual(take({ count: 1 })[0]);
  });

  it('rejects options that are not whole numbers in range, naming the option', () => {
    expect(() => fakeClients({ count: -1 })).toThrow(/`count`/);
    expect(() => fakeClients({ count: 1.5 })).toThrow(TypeError);
    expect(() => fakeClients({ count: 1, seed: 2 ** 32 })).toThrow(/`seed`/);
    expect(() => fakeClients({ count: 1, firstId: 0 })).toThrow(/`firstId`/);
  });
});

describe('generate-sample CLI', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const cli = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/generate-sample.ts', ...args], { cwd: root });

  it('writes the generator records as NDJSON, leaving no temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'generate-sample-'));
    try {
      const out = join(dir, 'clients.ndjson');
      const { stdout } = await cli(['--records', '300', '--seed', '9', '--first-id', '10', '--out', out]);
      const expected = take({ count: 300, seed: 9, firstId: 10 }).map((c) => `${JSON.stringify(c)}\n`).join('');
      expect(await readFile(out, 'utf8')).toBe(expected);
      expect(await readdir(dir)).toEqual(['clients.ndjson']);
      expect(stdout).toContain(`300 records, ${Buffer.byteLength(expected)} bytes`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on bad usage, naming the option and value', async () => {
    await expect(cli(['--records', 'abc', '--out', join(tmpdir(), 'never.ndjson')])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--records must be a whole number from 0 up, got "abc"'),
    });
  });
});
