import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClients } from '../../scripts/lib/fake-clients.ts';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { startPreview } from '../../src/preview/preview-server.ts';
import { ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * Filtered lists of another 3,000-record set (not a conformance set: other seed, other values), held
 * to an oracle written here from the contract alone, sharing no code with the build: which clients
 * match a value, in what order, how many, and the canonical links. Then the spellings the live
 * service reads as the same value (Python's Decimal for numbers, percent-encoding for codes), and
 * its own 400 bodies for invalid values, through the real preview.
 */
type Client = { id: number; name: string; effective_date: string | null; state: string | null; country: string | null; ppb_state: string | null; ppb_country: string | null; registrant: { id: number } };

const BASE = 'http://mirror.test';
const FIELD: Record<string, (client: Client) => string | null> = {
  registrant_id: (client) => String(client.registrant.id),
  client_state: (client) => client.state,
  client_country: (client) => client.country,
  client_ppb_state: (client) => client.ppb_state,
  client_ppb_country: (client) => client.ppb_country,
};

/** Code point order, as the contract asks (not UTF-16 order). */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const ORDER: Record<string, (a: Client, b: Client) => number> = {
  '': (a, b) => a.id - b.id,
  '-id': (a, b) => b.id - a.id,
  '-name': (a, b) => byCodePoint(b.name, a.name) || b.id - a.id,
  '-effective_date': (a, b) =>
    (a.effective_date === null ? 0 : 1) - (b.effective_date === null ? 0 : 1) ||
    (b.effective_date ?? '').localeCompare(a.effective_date ?? '') ||
    b.id - a.id,
};

describe('filtered lists of another 3,000-record set, against an oracle', () => {
  const temp = tempFolder('mirror-oracle-');
  const clients = [...fakeClients({ count: 3000, seed: 2026 })] as unknown as Client[];
  let url = '';
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const input = path.join(temp.path, 'in.ndjson');
    writeFileSync(input, ndjson(clients));
    const out = path.join(temp.path, 'out');
    await build(resolveBuildOptions({ input: [input], out, baseUrl: BASE, filters: Object.keys(FIELD).join(',') }));
    const preview = await startPreview({ dir: out, port: 0, static: true });
    url = preview.url;
    close = () => preview.close();
  }, 300_000);
  afterAll(async () => {
    await close();
    temp.remove();
  });

  const get = async (target: string) => {
    const response = await fetch(`${url}${target}`);
    return { status: response.status, body: await response.text() };
  };

  /** The values of a filter with the most, a middling number of and the fewest clients. */
  function valuesOf(filter: string): string[] {
    const counts = new Map<string, number>();
    for (const client of clients) {
      const value = FIELD[filter]!(client);
      if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return [...new Set([sorted[0]![0], sorted[Math.floor(sorted.length / 2)]![0], sorted.at(-1)![0]])];
  }

  it.each(Object.keys(FIELD))('%s: every page of its common, middling and rare values, in every ordering', async (filter) => {
    for (const value of valuesOf(filter)) {
      for (const ordering of Object.keys(ORDER)) {
        const expected = clients.filter((client) => FIELD[filter]!(client) === value).sort(ORDER[ordering]);
        const query = (page: number) => {
          const pairs = [[filter, value], ...(ordering ? [['ordering', ordering]] : []), ...(page > 1 ? [['page', String(page)]] : [])];
          return pairs.sort(([a], [b]) => (a! < b! ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&');
        };
        const last = Math.max(1, Math.ceil(expected.length / 25));
        const ids: number[] = [];
        for (let page = 1; page <= last; page++) {
          const { status, body } = await get(`/api/v1/clients/?${query(page)}`);
          expect(status, `${filter}=${value} ${ordering} page ${page}`).toBe(200);
          const parsed = JSON.parse(body) as { count: number; next: string | null; previous: string | null; results: { id: number }[] };
          expect(parsed.count).toBe(expected.length);
          expect(parsed.next).toBe(page < last ? `${BASE}/api/v1/clients/?${query(page + 1)}` : null);
          expect(parsed.previous).toBe(page > 1 ? `${BASE}/api/v1/clients/?${query(page - 1)}` : null);
          ids.push(...parsed.results.map((client) => client.id));
        }
        expect(ids, `${filter}=${value} ${ordering}`).toEqual(expected.map((client) => client.id));
        expect((await get(`/api/v1/clients/?${query(1)}&page=${last + 1}`)).status).toBe(404);
      }
    }
  });

  it('reads a registrant id in every spelling Python\'s Decimal reads, with the canonical links', async () => {
    const id = Number(valuesOf('registrant_id')[0]);
    const canonical = await get(`/api/v1/clients/?registrant_id=${id}&ordering=-name`);
    const digits = String(id);
    const arabicIndic = Array.from(digits, (d) => String.fromCodePoint(0x660 + Number(d))).join('');
    // Each read by CPython 3.11's decimal.Decimal as this id, then cut toward zero.
    const spellings = [
      `000${digits}`, `%2B${digits}`, `${digits}.999`, `${digits}.`, `${digits}.0e0`, `0.${digits}e${digits.length}`,
      `${digits.slice(0, -1)}.${digits.slice(-1)}E1`, `%20${digits}%09`, `${digits.slice(0, 2)}_${digits.slice(2)}`,
      encodeURIComponent(arabicIndic), `%${digits.charCodeAt(0).toString(16)}${digits.slice(1)}`,
    ];
    for (const spelling of spellings) {
      expect(await get(`/api/v1/clients/?ordering=-name&registrant_id=${spelling}`), spelling).toEqual(canonical);
    }
  });

  it('answers valid values that no client has with the empty list, and invalid ones with the live service\'s bodies', async () => {
    const empty = { status: 200, body: '{"count":0,"next":null,"previous":null,"results":[]}' };
    const countries = (JSON.parse(readFileSync(new URL('../../src/choices/lda-countries.json', import.meta.url), 'utf8')) as { value: string }[]).map((c) => c.value);
    const unused = countries.find((code) => !clients.some((client) => client.ppb_country === code));
    expect(unused).toBeDefined();
    expect(await get(`/api/v1/clients/?client_ppb_country=${unused}&page=last&format=json`)).toEqual(empty);
    expect((await get(`/api/v1/clients/?client_ppb_country=${unused}&page=2`)).status).toBe(404);
    for (const spelling of ['-0.9', '0', '1e15', '9.99e14', '123456789012345678901234567890']) {
      expect(await get(`/api/v1/clients/?registrant_id=${spelling}`), spelling).toEqual(empty);
    }
    const choice = (name: string, value: string) => ({
      status: 400,
      body: JSON.stringify({ [name]: [`Select a valid choice. ${value} is not one of the available choices.`] }),
    });
    const invalid: [string, string, string][] = [
      ['client_state', '%22TX%22', '"TX"'],
      ['client_state', 'T%C3%ABxas', 'Tëxas'],
      ['client_country', 'U%5CS%0A', 'U\\S\n'],
      ['client_country', 'us', 'us'],
      ['client_ppb_country', 'U+S', 'U S'],
      ['client_ppb_state', '%E2%9C%93%F0%9F%98%80', '✓😀'],
    ];
    for (const [name, sent, decoded] of invalid) expect(await get(`/api/v1/clients/?${name}=${sent}`), sent).toEqual(choice(name, decoded));
    for (const spelling of ['abc', 'NaN', 'inf', '0x1F', '%20', '1e', '--1', '1.2.3', '%C2%BD']) {
      expect(await get(`/api/v1/clients/?registrant_id=${spelling}&page=2`), spelling).toEqual({ status: 400, body: '{"registrant_id":["Enter a number."]}' });
    }
    // Percent-encoded codes are the codes themselves.
    expect(await get('/api/v1/clients/?client_country=%55%53')).toEqual(await get('/api/v1/clients/?client_country=US'));
  });
});
