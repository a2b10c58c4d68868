import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildSummary } from '../src/build.ts';
import { resolveBuildOptions } from '../src/config.ts';
import { clientRecord, ndjson } from './support/records.ts';
import { tempFolder } from './support/temp-folder.ts';

/** Path -> [inode, mtime, md5] of every site file (the `_build` lists aside). */
function inventory(root: string): Map<string, [number, number, string]> {
  const files = new Map<string, [number, number, string]>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, full);
    if (relative.startsWith('_build')) continue;
    const info = statSync(full);
    files.set(relative, [info.ino, info.mtimeMs, createHash('md5').update(readFileSync(full)).digest('hex')]);
  }
  return files;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

describe('incremental output', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  const records = (extra: ReturnType<typeof clientRecord>[] = [], renamed = false) =>
    Array.from({ length: 60 }, (_, i) =>
      clientRecord(i + 1, { name: `CLIENT ${(i * 7) % 60}` }, { id: 900 + (i % 3), name: renamed && i % 3 === 1 ? 'RENAMED' : `R${i % 3}` }),
    ).concat(extra);
  const rebuild = async (list: ReturnType<typeof clientRecord>[]): Promise<BuildSummary> => {
    writeFileSync(input, ndjson(list));
    return build(resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' }));
  };
  let first: Map<string, [number, number, string]>;

  beforeAll(async () => {
    await rebuild(records());
    first = inventory(out);
  });
  afterAll(() => temp.remove());

  it('a rebuild with no change writes no file: every file keeps its inode and modification time', async () => {
    const summary = await rebuild(records());
    expect(summary).toMatchObject({ written: 0, linked: first.size, files: first.size, removed: 0 });
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
    expect(summary.removed).toBe(gone.length);

    for (const [file, [inode, mtime, hash]] of after) {
      const old = before.get(file);
      if (old?.[2] === hash) expect([file, inode, mtime]).toEqual([file, old[0], old[1]]);
    }
    expect(differing.length).toBeLessThan(after.size / 2);
  });

  it('the manifest lists every site file with its size and MD5', () => {
    const manifest = lines(path.join(out, '_build/manifest.tsv'));
    expect(manifest[0]).toBe('path\tsize\tmd5');
    const files = inventory(out);
    const entries = manifest.slice(1).map((line) => line.split('\t'));
    expect(entries.map(([file]) => file).sort()).toEqual([...files.keys()].sort());
    for (const [file, size, hash] of entries) {
      expect(Number(size)).toBe(statSync(path.join(out, file!)).size);
      expect(hash).toBe(files.get(file!)![2]);
    }
  });
});
