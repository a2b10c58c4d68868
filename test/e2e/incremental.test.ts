import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildSummary } from '../../src/build.ts';
import { directoryStem } from '../../src/bundle/record-directory.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { resolveRequest } from '../../src/routing/resolve-request.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/** Path -> [inode, mtime, SHA-1] of every site file (the `_build` lists aside). */
function inventory(root: string): Map<string, [number, number, string]> {
  const files = new Map<string, [number, number, string]>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, full);
    if (relative.startsWith('_build')) continue;
    const info = statSync(full);
    files.set(relative, [info.ino, info.mtimeMs, createHash('sha1').update(readFileSync(full)).digest('hex')]);
  }
  return files;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

describe('incremental output (unfiltered lists)', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  const records = (extra: ReturnType<typeof clientRecord>[] = [], renamed = false) =>
    Array.from({ length: 60 }, (_, i) =>
      clientRecord(i + 1, { name: `CLIENT ${(i * 7) % 60}` }, { id: 900 + (i % 3), name: renamed && i % 3 === 1 ? 'RENAMED' : `R${i % 3}` }),
    ).concat(extra);
  const rebuild = async (list: ReturnType<typeof clientRecord>[], force = false): Promise<BuildSummary> => {
    writeFileSync(input, ndjson(list));
    return build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org', filters: 'none', force }));
  };
  let first: Map<string, [number, number, string]>;

  beforeAll(async () => {
    await rebuild(records());
    first = inventory(out);
  });
  afterAll(() => temp.remove());

  it('a rebuild with no change finds the output up to date: nothing built, every file as it was', async () => {
    const buildDir = realpathSync(out);
    const summary = await rebuild(records());
    expect(summary).toMatchObject({ upToDate: true, written: 0, linked: 0, files: first.size, removed: 0, bytesWritten: 0 });
    expect(realpathSync(out)).toBe(buildDir);
    expect(inventory(out)).toEqual(first);
    expect(lines(path.join(out, '_build/changed.txt'))).toEqual([]);
    expect(lines(path.join(out, '_build/removed.txt'))).toEqual([]);
  });

  it('forced, a rebuild with no change writes no file: every file keeps its inode and modification time', async () => {
    const summary = await rebuild(records(), true);
    expect(summary).toMatchObject({ upToDate: false, written: 0, linked: first.size, files: first.size, removed: 0, bytesWritten: 0 });
    expect(inventory(out)).toEqual(first);
    expect(lines(path.join(out, '_build/changed.txt'))).toEqual([]);
  });

  it('a change rewrites exactly the files whose bytes changed, and lists them and the removed ones', async () => {
    const before = inventory(out);
    // One new client, one registrant renamed (in 20 clients), client 60 gone.
    const changedRecords = records([clientRecord(61, { name: 'NEW CLIENT' }, { id: 900, name: 'R0' })], true).filter((c) => c.id !== 60);
    const summary = await rebuild(changedRecords);
    const after = inventory(out);

    const differing = [...after.keys()].filter((file) => before.get(file)?.[2] !== after.get(file)![2]).sort();
    const gone = [...before.keys()].filter((file) => !after.has(file)).sort();
    expect(lines(path.join(out, '_build/changed.txt')).sort()).toEqual(differing);
    expect(lines(path.join(out, '_build/removed.txt')).sort()).toEqual(gone);
    expect(gone).toContain('api/v1/clients/60/format=api.json');
    expect(differing).toContain('api/v1/clients/61/index.json');
    expect(differing).toContain('api/v1/registrants/901/format=json.json');
    expect(summary.written).toBe(differing.length);
    expect(summary.bytesWritten).toBe(differing.reduce((sum, file) => sum + statSync(path.join(out, file)).size, 0));
    expect(summary.removed).toBe(gone.length);

    for (const [file, [inode, mtime, hash]] of after) {
      const old = before.get(file);
      if (old?.[2] === hash) expect([file, inode, mtime]).toEqual([file, old[0], old[1]]);
    }
    expect(differing.length).toBeLessThan(after.size / 2);
  });

  it('the manifest lists every site file with its size and SHA-1', () => {
    const manifest = lines(path.join(out, '_build/manifest.tsv'));
    expect(manifest[0]).toBe('path\tsize\tsha1');
    const files = inventory(out);
    const entries = manifest.slice(1).map((line) => line.split('\t'));
    expect(entries.map(([file]) => file).sort()).toEqual([...files.keys()].sort());
    for (const [file, size, hash] of entries) {
      expect(Number(size)).toBe(statSync(path.join(out, file!)).size);
      expect(hash).toBe(files.get(file!)![2]);
    }
  });

  it('after a folder an older version built (its manifest lists MD5), every file is written once more, and no file is said removed that is not', async () => {
    const manifestFile = path.join(out, '_build/manifest.tsv');
    const md5 = (file: string) => createHash('md5').update(readFileSync(path.join(out, file))).digest('hex');
    const [, ...entries] = lines(manifestFile).map((line) => line.split('\t'));
    writeFileSync(manifestFile, ['path\tsize\tmd5', ...entries.map(([file, size]) => `${file}\t${size}\t${md5(file!)}`)].join('\n') + '\n');
    const files = inventory(out);

    const summary = await rebuild(records([clientRecord(61, { name: 'NEW CLIENT' }, { id: 900, name: 'R0' })], true).filter((c) => c.id !== 60), true);
    expect(summary).toMatchObject({ written: summary.files, linked: 0, removed: 0, bytesWritten: summary.bytes });
    expect(lines(path.join(out, '_build/changed.txt')).sort()).toEqual([...inventory(out).keys()].sort());
    expect(lines(path.join(out, '_build/removed.txt'))).toEqual([]);
    expect(lines(manifestFile)[0]).toBe('path\tsize\tsha1');
    expect(summary.files).toBe(files.size);
  });
});

describe('incremental output with filtered lists', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  const STATES = ['TX', 'VA', 'CA'];
  const base = () =>
    Array.from({ length: 90 }, (_, i) =>
      clientRecord(i + 1, { name: `CLIENT ${i + 1}`, state: STATES[i % 3], country: i % 2 === 0 ? 'US' : 'CA' }, { id: 900 + (i % 3), name: `R${i % 3}` }),
    ).concat([clientRecord(91, { state: 'WY', country: 'US' }, { id: 903, name: 'R3' })]);
  const rebuild = async (list: ReturnType<typeof clientRecord>[]): Promise<BuildSummary> => {
    writeFileSync(input, ndjson(list));
    return build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' }));
  };
  afterAll(() => temp.remove());

  it('a nightly change to one client rewrites its old and new registrant\'s, state\'s and country\'s pages, and only pages that change', async () => {
    await rebuild(base());
    const before = inventory(out);
    // Client 4 (TX, CA, registrant 900) moves to registrant 901, state AK (no client had it), country US;
    // client 91, WY's only client and registrant 903's, moves to VA and registrant 902.
    const changed = base().map((client) => {
      if (client.id === 4) return clientRecord(4, { name: 'CLIENT 4', state: 'AK', country: 'US' }, { id: 901, name: 'R1' });
      if (client.id === 91) return clientRecord(91, { state: 'VA', country: 'US' }, { id: 902, name: 'R2' });
      return client;
    });
    const summary = await rebuild(changed);
    const after = inventory(out);

    const differing = [...after.keys()].filter((file) => before.get(file)?.[2] !== after.get(file)![2]).sort();
    const gone = [...before.keys()].filter((file) => !after.has(file)).sort();
    expect(lines(path.join(out, '_build/changed.txt')).sort()).toEqual(differing);
    expect(lines(path.join(out, '_build/removed.txt')).sort()).toEqual(gone);
    expect(summary).toMatchObject({ written: differing.length, removed: gone.length });

    const touched = (folder: string) => differing.some((file) => file.startsWith(`api/v1/clients/${folder}/`));
    for (const folder of ['registrant_id=900', 'registrant_id=901', 'registrant_id=902', 'client_state=TX', 'client_state=AK', 'client_state=VA', 'client_country=CA', 'client_country=US']) {
      expect(touched(folder), folder).toBe(true);
    }
    // Neither client was ever in CA: its pages keep their bytes, inode and time.
    expect(touched('client_state=CA')).toBe(false);
    for (const [file, [inode, mtime, hash]] of after) {
      const old = before.get(file);
      if (old?.[2] === hash) expect([file, inode, mtime]).toEqual([file, old[0], old[1]]);
    }
    // A value whose last client left: its pages are removed, and the request answers the empty list.
    for (const folder of ['client_state=WY', 'registrant_id=903']) {
      expect(gone.filter((file) => file.startsWith(`api/v1/clients/${folder}/`)), folder).toHaveLength(12);
      expect(after.has(`api/v1/clients/${folder}/index.json`)).toBe(false);
    }
    const map = JSON.parse(readFileSync(path.join(out, 'rewrite-map.json'), 'utf8')) as RewriteMap;
    for (const target of ['/api/v1/clients/?client_state=WY', '/api/v1/clients/?registrant_id=903&ordering=-id']) {
      const answer = resolveRequest(map, 'GET', target);
      expect(answer.kind === 'file' && !after.has(answer.file) ? answer.missing.body : answer, target).toBe(
        '{"count":0,"next":null,"previous":null,"results":[]}',
      );
    }
    // Nothing else changed: the unfiltered pages, the two clients' records, the map (its last pages),
    // and in the query bundle the chunks of the two clients and their directory, their segment's key fragments, the registrants (their
    // packs, columns and key index), each under a new name (its content's), and the manifest (bundle/manifest.json),
    // which names them (its ETag digests the bundle, so it changes with any answer); and the registrants
    // list's pages.
    const place = (file: string) => file.replace(/\/(?:format|ordering)=[^/]*/g, '').replace(/\/[^/]*$/, '');
    expect(differing.filter((file) => file.startsWith('bundle/clients/') && !file.startsWith(`bundle/${directoryStem('chunks')}.`)).length).toBeLessThanOrEqual(2);
    expect(differing.filter((file) => file.startsWith(`bundle/${directoryStem('chunks')}.`))).toHaveLength(1);
    expect(new Set(differing.map(place))).toEqual(
      new Set(['api/v1/clients', 'api/v1/clients/4', 'api/v1/clients/91', 'rewrite-map.json', 'bundle/clients', 'bundle/keys', 'api/v1/registrants', 'bundle', 'bundle/registrants', 'bundle/registrants/columns', 'bundle/registrants/keys', ...['registrant_id=900', 'registrant_id=901', 'registrant_id=902', 'client_state=TX', 'client_state=AK', 'client_state=VA', 'client_country=CA', 'client_country=US'].map((folder) => `api/v1/clients/${folder}`)]),
    );
  });
});

describe('comparing with the previous build', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  afterAll(() => temp.remove());

  it('a previous manifest that cannot be read fails the build with the reading thread\'s error, and the output stays as it was', async () => {
    writeFileSync(input, ndjson([clientRecord(1), clientRecord(2)]));
    const options = resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org', filters: 'none' });
    await build(options);
    const manifest = path.join(out, '_build/manifest.tsv');
    const listed = readFileSync(manifest, 'utf8');
    // A folder where the manifest was: the compare thread's first read fails.
    rmSync(manifest);
    mkdirSync(manifest);
    const before = inventory(out);
    const buildDir = realpathSync(out);

    await expect(build({ ...options, force: true })).rejects.toThrow(`cannot compare with the previous build: ${path.join(buildDir, '_build/manifest.tsv')}: EISDIR`);
    expect(realpathSync(out)).toBe(buildDir);
    expect(inventory(out)).toEqual(before);
    // Mended, the next build compares with it again: every file unchanged, linked.
    rmSync(manifest, { recursive: true });
    writeFileSync(manifest, listed);
    const summary = await build({ ...options, force: true });
    expect(summary).toMatchObject({ written: 0, linked: before.size, removed: 0 });
  });
});
