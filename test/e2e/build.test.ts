import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { CLIENT_PATH_PREFIX, LIST_PATH } from '../../src/contract.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { choiceStep, listRoute, recordRoutes, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { listPageFile, recordFile } from '../../src/plan/site-layout.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

let temp: ReturnType<typeof tempFolder>;
beforeEach(() => (temp = tempFolder()));
afterEach(() => temp.remove());

const out = () => path.join(temp.path, 'out');
const read = (file: string) => readFileSync(path.join(out(), file), 'utf8');

function write(name: string, text: string): string {
  const file = path.join(temp.path, 'in', name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const buildFrom = (input: string, formats?: string, filters?: string) =>
  build(resolveBuildOptions({ input: [input], out: out(), baseUrl: 'https://m.example.org', formats, filters }));

describe('build', () => {
  it('reads a folder of NDJSON, JSON arrays and saved pages alike', async () => {
    write('a.ndjson', ndjson([clientRecord(1)]));
    write('b/c.json', JSON.stringify([clientRecord(2), clientRecord(3)], null, 2));
    write('d.json', JSON.stringify({ count: 1, next: null, previous: null, results: [clientRecord(4)] }));
    write('e.jsonl', ndjson([clientRecord(5)]));
    write('notes.txt', 'ignored');
    const summary = await buildFrom(path.join(temp.path, 'in'));
    // 12 unfiltered pages (4 orderings, 3 formats), as many for each of registrant 900, TX and US.
    expect(summary).toMatchObject({ inputFiles: 4, recordsRead: 5, clients: 5, registrants: 1, pages: 48 });
    expect(JSON.parse(read('api/v1/clients/ordering=-id/index.json')).results.map((c: { id: number }) => c.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('builds only the formats asked for', async () => {
    const summary = await buildFrom(write('a.ndjson', ndjson([clientRecord(1)])), 'api');
    expect(summary.pages).toBe(16);
    expect(existsSync(path.join(out(), 'api/v1/clients/format=api/ordering=-name/index.json'))).toBe(true);
    expect(existsSync(path.join(out(), 'api/v1/clients/index.json'))).toBe(false);
    expect(existsSync(path.join(out(), 'api/v1/clients/1/format=json.json'))).toBe(false);
    expect(existsSync(path.join(out(), 'api/v1/clients/1/index.json'))).toBe(false);
    expect(existsSync(path.join(out(), 'api/v1/clients/1/format=api.json'))).toBe(true);
    const map = JSON.parse(read('rewrite-map.json')) as RewriteMap;
    expect(choiceStep(listRoute(map), 'format')?.choices).toEqual({ api: 'format=api/' });
    for (const route of recordRoutes(map)) expect(choiceStep(route, 'format')?.choices).toEqual({ api: 'format=api.json' });
  });

  it('builds an empty data set as one empty page per ordering and format', async () => {
    const summary = await buildFrom(write('empty.ndjson', ''));
    expect(summary).toMatchObject({ clients: 0, pages: 12 });
    expect(read('api/v1/clients/format=json/ordering=-effective_date/index.json')).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
  });

  it('counts replaced clients and registrants with differing copies', async () => {
    write('1.ndjson', ndjson([clientRecord(1, { name: 'OLD' }), clientRecord(2, {}, { name: 'R OLD', dt_updated: '2020-01-01T00:00:00-05:00' })]));
    write('2.ndjson', ndjson([clientRecord(1, { name: 'NEW' })]));
    const summary = await buildFrom(path.join(temp.path, 'in'));
    expect(summary).toMatchObject({ recordsRead: 3, clients: 2, replacedClients: 1, registrants: 1, conflictedRegistrants: 1 });
    expect(read('api/v1/clients/1/index.json')).toContain('"name":"NEW"');
    // The newest copy of registrant 900 is served in every client and on its own path.
    expect(read('api/v1/clients/2/index.json')).toContain('"name":"REGISTRANT 900"');
    expect(read('api/v1/registrants/900/index.json')).toBe(
      '{"id":900,"url":"https://m.example.org/api/v1/registrants/900/","house_registrant_id":null,"name":"REGISTRANT 900",' +
        '"description":null,"address_1":null,"address_2":null,"address_3":null,"address_4":null,"city":null,"state":null,' +
        '"state_display":null,"zip":null,"country":null,"country_display":null,"ppb_country":null,"ppb_country_display":null,' +
        '"contact_name":null,"contact_telephone":null,"dt_updated":"2025-07-24T11:34:51.894845-04:00"}',
    );
  });

  it('writes a record file byte for byte as the record appears inside the list', async () => {
    await buildFrom(write('a.ndjson', ndjson([clientRecord(1, { name: 'Ünïcödé \u2028 "q"' })])));
    for (const format of ['', 'api', 'json'] as const) {
      expect(read(listPageFile(LIST_PATH, undefined, format, '-name', 1))).toContain(read(recordFile(`${CLIENT_PATH_PREFIX}{id}/`, 1, format)));
    }
    expect(read('api/v1/clients/1/format=json.json')).toContain('"name":"Ünïcödé \\u2028 \\"q\\""');
  });

  it('writes UTF-8 whether a page, a client or its registrant has ASCII only or not', async () => {
    await buildFrom(
      write('a.ndjson', ndjson([clientRecord(1, { name: 'Plain' }), clientRecord(2, { name: 'Société Générale 中文' }), clientRecord(3, {}, { id: 7, name: 'Régie' })])),
    );
    const files = ['api/v1/clients/index.json', 'api/v1/clients/1/index.json', 'api/v1/clients/2/index.json', 'api/v1/clients/3/index.json', 'api/v1/registrants/7/index.json'];
    for (const file of files) {
      const bytes = readFileSync(path.join(out(), file));
      // Latin-1 bytes for a non-ASCII character would not survive a round trip through UTF-8.
      expect(Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes), file).toBe(true);
    }
    expect(read('api/v1/clients/index.json')).toContain('"name":"Société Générale 中文"');
    expect(read('api/v1/clients/index.json')).toContain('"name":"Régie"');
    expect(read('api/v1/clients/1/index.json')).toContain('"name":"Plain"');
  });
});

describe('filtered lists (contract section 8)', () => {
  const records = () => [
    ...Array.from({ length: 30 }, (_, i) => clientRecord(i + 1, { state: i < 27 ? 'TX' : 'VA', name: `C${String(i + 1).padStart(2, '0')}` })),
    clientRecord(31, { state: 'tx', country: 'ZZ' }, { id: 7 }),
    clientRecord(32, { state: null, country: '' }, { id: 7 }),
  ];

  it('builds every page of every value of the default filters, links in canonical form', async () => {
    const summary = await buildFrom(write('a.ndjson', ndjson(records())));
    // Unfiltered 2 pages; registrant 900: 2, registrant 7: 1; TX: 2, VA: 1; US: 2 (clients 1-30).
    expect(summary.pages).toBe((2 + 3 + 3 + 2) * 4 * 3);
    const page = JSON.parse(read('api/v1/clients/client_state=TX/ordering=-name/page=2.json'));
    expect(page).toMatchObject({ count: 27, next: null, previous: 'https://m.example.org/api/v1/clients/?client_state=TX&ordering=-name' });
    expect(page.results.map((client: { id: number }) => client.id)).toEqual([2, 1]);
    const first = JSON.parse(read('api/v1/clients/registrant_id=900/format=json/index.json'));
    expect(first).toMatchObject({ count: 30, previous: null, next: 'https://m.example.org/api/v1/clients/?format=json&page=2&registrant_id=900' });
    expect(JSON.parse(read('api/v1/clients/registrant_id=7/index.json')).results.map((client: { id: number }) => client.id)).toEqual([31, 32]);
    // Codes the live service's lists lack cannot be asked for; an empty code is no value.
    for (const folder of ['client_state=tx', 'client_country=ZZ', 'client_country=', 'client_ppb_country=US']) {
      expect(existsSync(path.join(out(), 'api/v1/clients', folder)), folder).toBe(false);
    }
    const filters = (JSON.parse(read('rewrite-map.json')) as RewriteMap).routes[0]!.steps.find((step) => step.step === 'filters');
    expect(filters).toMatchObject({
      served: [
        { param: 'registrant_id', values: 'number', lastPages: { '900': 2 } },
        { param: 'client_state', values: 'choice', lastPages: { TX: 2 } },
        { param: 'client_country', values: 'choice', lastPages: { US: 2 } },
      ],
      rejected: ['id', 'client_name', 'client_ppb_state', 'client_ppb_country', 'registrant_name'],
    });
    expect(read('empty-list.json')).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
  });

  it('--filters none builds the unfiltered lists only; --filters picks any of the five', async () => {
    expect((await buildFrom(write('a.ndjson', ndjson(records())), undefined, 'none')).pages).toBe(2 * 4 * 3);
    expect(existsSync(path.join(out(), 'api/v1/clients/registrant_id=900'))).toBe(false);
    const summary = await buildFrom(path.join(temp.path, 'in'), 'none', 'client_ppb_country,client_ppb_state');
    expect(summary.pages).toBe((2 + 2) * 4);
    expect(read('api/v1/clients/client_ppb_country=US/ordering=-id/index.json')).toMatch(/^\{"count":32,"next":"https:\/\/m.example.org\/api\/v1\/clients\/\?client_ppb_country=US&ordering=-id&page=2"/);
  });
});
