import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

describe('failing writes', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'site', 'out');
  const input = path.join(temp.path, 'in.ndjson');
  const options = () => resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' });
  let before: ReturnType<typeof snapshot>;

  beforeAll(async () => {
    writeFileSync(input, ndjson(Array.from({ length: 80 }, (_, i) => clientRecord(i + 1))));
    await build(options());
    before = snapshot(out);
    writeFileSync(input, ndjson(Array.from({ length: 81 }, (_, i) => clientRecord(i + 1)))); // a change to write
  });
  afterAll(() => temp.remove());

  function expectPreviousIntact() {
    expect(snapshot(out)).toEqual(before);
    // Nothing beside the output but the build it points at, and the lock every build takes.
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['out', before.link, '.out.lock.sqlite'].sort());
  }

  it.each([
    ['a full disk', 'writeFileSync', 'ENOSPC', 25],
    ['permission denied on a write', 'writeFileSync', 'EACCES', 0],
    ['permission denied on a link', 'linkSync', 'EACCES', 10],
    ['a file in the way of a folder', 'mkdirSync', 'EEXIST', 2],
  ] as const)('%s: a clear error naming the path, and the previous output intact', async (_name, call, code, after) => {
    const result = build(options(), undefined, { faults: [{ call, code, after }] });
    await expect(result).rejects.toThrow(new RegExp(`${code}.*'${path.dirname(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.out\\.build-`));
    expectPreviousIntact();
  });

  it('a file where the output folder should be is named', async () => {
    const blocked = path.join(temp.path, 'blocked');
    writeFileSync(blocked, 'a file, not a folder');
    await expect(build(resolveBuildOptions({ input: [input], out: path.join(blocked, 'out'), baseUrl: 'https://m.example.org' }))).rejects.toThrow(
      /ENOTDIR|EEXIST.*blocked/,
    );
    await expect(build(resolveBuildOptions({ input: [input], out: blocked, baseUrl: 'https://m.example.org' }))).rejects.toThrow(
      /blocked is a file/,
    );
  });

  it('the next build after the failures succeeds', async () => {
    const summary = await build(options());
    expect(summary.clients).toBe(81);
    // The output, its build, the previous build kept for its readers and the link naming it, the lock.
    expect(readdirSync(path.dirname(out)).length).toBe(5);
    expect(readdirSync(path.dirname(out))).toContain('.out.previous');
  });
});
