import { mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { checkSite } from '../../src/check/check-site.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { runCli } from '../support/cli.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

let temp: ReturnType<typeof tempFolder>;
let out: string;
let input: string;
beforeEach(async () => {
  temp = tempFolder();
  out = path.join(temp.path, 'out');
  input = path.join(temp.path, 'in.ndjson');
  writeFileSync(input, ndjson(Array.from({ length: 60 }, (_, i) => clientRecord(i + 1, {}, { id: 900 + (i % 4) }))));
  await build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org', skipCheck: true }));
});
afterEach(() => temp.remove());

const check = () => checkSite(out, { indexFile: path.join(temp.path, 'check.sqlite') });
const edit = (file: string, change: (text: string) => string) => writeFileSync(path.join(out, file), change(readFileSync(path.join(out, file), 'utf8')));

describe('npm run check', () => {
  it('finds no problem in a fresh build, having followed every link', async () => {
    const result = await check();
    expect(result.problems).toEqual([]);
    expect(result.files).toBeGreaterThan(12 * 3 + 60 * 3);
    // 12 lists x 3 pages: two links a client, next/previous; 180 client files and 12 registrant files.
    expect(result.links).toBeGreaterThan(60 * 12 * 2);
  });

  it('finds a file whose bytes differ from the manifest', async () => {
    edit('api/v1/clients/7/format=api.json', (text) => text.replace('CLIENT 7', 'CLIENT 8'));
    expect((await check()).problems).toContainEqual(expect.stringMatching(/^api\/v1\/clients\/7\/format=api\.json differs from the manifest/));
  });

  it('says once that a manifest lists MD5 (an older version\'s folder), and still holds each file to its size', async () => {
    const { createHash } = await import('node:crypto');
    edit('_build/manifest.tsv', (text) =>
      text
        .split('\n')
        .map((line, i) => (i === 0 ? 'path\tsize\tmd5' : line === '' ? line : line.replace(/[0-9a-f]{40}$/, createHash('md5').update(readFileSync(path.join(out, line.split('\t')[0]!))).digest('hex'))))
        .join('\n'),
    );
    edit('api/v1/clients/7/format=api.json', (text) => text.replace('CLIENT 7', 'CLIENT 77'));
    const { problems } = await check();
    expect(problems).toEqual([
      '_build/manifest.tsv lists md5, where this version lists sha1: build the folder again',
      expect.stringMatching(/^api\/v1\/clients\/7\/format=api\.json differs from the manifest \(size \d+, listed \d+\)$/),
    ]);
  });

  it('finds a file the manifest lists but the folder lost', async () => {
    rmSync(path.join(out, 'api/v1/registrants/901/format=json.json'));
    const { problems } = await check();
    expect(problems).toContain('api/v1/registrants/901/format=json.json is in the manifest but missing from the folder');
  });

  it('finds a file the manifest does not list', async () => {
    mkdirSync(path.join(out, 'api/v1/clients/999'));
    writeFileSync(path.join(out, 'api/v1/clients/999/index.json'), '{"id":999,"url":"https://m.example.org/api/v1/clients/999/"}');
    const { problems } = await check();
    expect(problems).toContain('api/v1/clients/999/index.json is not in the manifest');
  });

  it('finds a listed file that no link reaches, and the count it breaks', async () => {
    const body = '{"id":999,"url":"https://m.example.org/api/v1/clients/999/"}';
    mkdirSync(path.join(out, 'api/v1/clients/999'));
    writeFileSync(path.join(out, 'api/v1/clients/999/index.json'), body);
    const sha1 = (await import('node:crypto')).createHash('sha1').update(body).digest('hex');
    edit('_build/manifest.tsv', (text) => `${text}api/v1/clients/999/index.json\t${body.length}\t${sha1}\n`);
    const { problems } = await check();
    expect(problems).toContain('api/v1/clients/999/index.json is reached by no link');
    expect(problems).toContain('/api/v1/clients/{id}/: 61 files index.json, the map says 60');
  });

  it('finds a next link that skips a page', async () => {
    edit('api/v1/clients/format=json/ordering=-name/index.json', (text) => text.replace('page=2', 'page=3'));
    const { problems } = await check();
    expect(problems).toContainEqual(expect.stringMatching(/^api\/v1\/clients\/format=json\/ordering=-name\/index\.json: next leads to api\/v1\/clients\/format=json\/ordering=-name\/page=3\.json$/));
  });

  it('finds a filtered page whose count or page count disagrees with the map', async () => {
    // Registrant 900 has 15 clients: one page; TX (every client) has 60: three.
    edit('api/v1/clients/registrant_id=900/ordering=-id/index.json', (text) => text.replace('"count":15', '"count":16'));
    // A page gone from the folder and the manifest alike: only the map still knows it.
    rmSync(path.join(out, 'api/v1/clients/client_state=TX/format=api/page=3.json'));
    edit('_build/manifest.tsv', (text) => text.replace(/^api\/v1\/clients\/client_state=TX\/format=api\/page=3\.json\t.*\n/m, ''));
    const { problems } = await check();
    expect(problems).toContain('api/v1/clients/registrant_id=900/ordering=-id/index.json: 15 results, expected 16');
    expect(problems).toContain('api/v1/clients/client_state=TX/format=api/: 2 pages, the map says 3');
  });

  it('exits 1 and lists the problems on the command line', async () => {
    edit('api/v1/clients/page=2.json', (text) => text.replace('"count":60', '"count":61'));
    const result = runCli(['check', '--dir', out]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/api\/v1\/clients\/page=2\.json: count 61, the map says 60/);
    expect(runCli(['check', '--help']).stdout).toContain('--dir');
  });

  it('a build whose new folder fails its check is not published', async () => {
    const before = snapshot(out);
    writeFileSync(input, ndjson(Array.from({ length: 61 }, (_, i) => clientRecord(i + 1))));
    // A renderer with bugs: a record file without its url, and a page that is not JSON.
    const faults = [
      { file: 'api/v1/clients/61/index.json', body: '{"id":61}' },
      { file: 'api/v1/clients/format=json/ordering=-name/page=2.json', body: '{"count":61,' },
    ];
    await expect(build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' }), undefined, { faults })).rejects.toThrow(
      /fails its check, so it was not published:[\s\S]*api\/v1\/clients\/61\/index\.json: url is missing/,
    );
    await expect(build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' }), undefined, { faults })).rejects.toThrow(
      /api\/v1\/clients\/format=json\/ordering=-name\/page=2\.json: not JSON/,
    );
    expect(snapshot(out)).toEqual(before);
    expect(readlinkSync(out)).toBe(before.link);
  });
});
