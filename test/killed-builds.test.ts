import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from './support/cli.ts';
import { snapshot } from './support/folder-snapshot.ts';
import { clientRecord, ndjson } from './support/records.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * SIGKILL at several moments of a build: at each, the output is exactly the previous build, and the
 * next build succeeds with no leftover beside the output.
 */
describe('killed builds', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'site', 'out');
  const small = path.join(temp.path, 'small.ndjson');
  const sample = path.join(REPO_ROOT, 'data');
  let previous: ReturnType<typeof snapshot>;

  beforeAll(() => {
    writeFileSync(small, ndjson([clientRecord(1), clientRecord(2)]));
    expect(runCli(['build', '--input', small, '--out', out, '--base-url', 'http://m.test']).status).toBe(0);
    previous = snapshot(out);
  }, 60_000);
  afterAll(() => temp.remove());

  /** Starts a build of the 3,074-record sample and kills it when `stage` starts, plus `delayMs`. */
  function buildAndKill(stage: string, delayMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', `${REPO_ROOT}src/cli.ts`, 'build', '--input', sample, '--out', out, '--base-url', 'http://m.test'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes(`${stage}: started`)) setTimeout(() => child.kill('SIGKILL'), delayMs);
      });
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`build ended on its own (${code}) before the kill:\n${seen}`))));
    });
  }

  it.each([
    ['reading records', 'read', 0],
    ['indexing', 'index', 0],
    ['writing files, early', 'write', 50],
    ['writing files, late', 'write', 300],
  ])('killed while %s: the output is exactly the previous build', async (_name, stage, delayMs) => {
    await buildAndKill(stage, delayMs);
    expect(snapshot(out)).toEqual(previous);
  }, 60_000);

  it('the next build succeeds and leaves nothing beside the output', () => {
    const leftovers = readdirSync(path.dirname(out)).filter((entry) => entry !== 'out' && entry !== previous.link);
    expect(leftovers.length).toBeGreaterThan(0); // what the killed builds left
    const result = runCli(['build', '--input', small, '--out', out, '--base-url', 'http://m.test']);
    expect(result.status).toBe(0);
    const after = snapshot(out);
    const siteFiles = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([file]) => !file.startsWith('_build')));
    expect(siteFiles(after.files)).toEqual(siteFiles(previous.files));
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['out', after.link].sort());
  }, 60_000);
});
