import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, runCliAsync } from '../support/cli.ts';
import { backgroundRemovalsDone, snapshot } from '../support/folder-snapshot.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * SIGKILL at several moments of a build: at each, the output is exactly the previous build, and the
 * next build succeeds with no leftover beside the output.
 */
/** The lock every build of `out` takes: it stays beside the output (see src/store/exclusive-lock.ts). */
const LOCK = '.out.lock.sqlite';
const TSX_LOADER = import.meta.resolve('tsx');
const ZOMBIE_HOLDER = fileURLToPath(new URL('../support/zombie-holder.mjs', import.meta.url));

describe('killed builds', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'site', 'out');
  const small = path.join(temp.path, 'small.ndjson');
  const sample = path.join(REPO_ROOT, 'data');
  let previous: ReturnType<typeof snapshot>;
  // Without filtered lists: these builds need only be running, and the sample's filtered lists triple its build.
  const buildArgs = (input: string) => ['build', '--input', input, '--out', out, '--base-url', 'http://m.test', '--filters', 'none'];

  beforeAll(() => {
    writeFileSync(small, ndjson([clientRecord(1), clientRecord(2)]));
    expect(runCli(buildArgs(small)).status).toBe(0);
    previous = snapshot(out);
  }, 60_000);
  afterAll(() => temp.remove());

  /** Starts a build of the 3,074-record sample and kills it when `stage` starts, plus `delayMs`. */
  function buildAndKill(stage: string, delayMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', `${REPO_ROOT}src/cli.ts`, ...buildArgs(sample)], {
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

  it('a build started half a second after the last one was killed, while it is still an unreaped zombie, succeeds', async () => {
    const holder = spawn(process.execPath, [ZOMBIE_HOLDER, 'write', '8000', '--import', TSX_LOADER, `${REPO_ROOT}src/cli.ts`, ...buildArgs(sample)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const killed = await new Promise<number>((resolve, reject) => {
      let said = '';
      holder.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        const pid = /killed (\d+)/.exec(said)?.[1];
        if (pid !== undefined) resolve(Number(pid));
        else if (said.includes('ended on its own')) reject(new Error(said));
      });
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The killed build is a zombie now: its parent is blocked and has not reaped it.
      expect(readFileSync(`/proc/${killed}/stat`, 'utf8').split(' ')[2]).toBe('Z');
      const next = await runCliAsync(buildArgs(small));
      expect(next.stderr).not.toContain('another build');
      expect(next.status).toBe(0);
      expect(next.stdout).toContain('cleaned      what an interrupted build left');
      previous = snapshot(out);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a second build on the same output while one runs refuses at once, naming the output, and changes nothing', async () => {
    const first = spawn(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}src/cli.ts`, ...buildArgs(sample)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const firstDone = new Promise<number | null>((resolve) => first.on('exit', resolve));
    await new Promise<void>((resolve) => {
      let seen = '';
      first.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('write: started')) resolve();
      });
    });
    const second = await runCliAsync(buildArgs(small));
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`another build is writing ${out} right now`);
    expect(second.stderr).not.toMatch(/delete/);
    expect(await firstDone).toBe(0);
    expect(readFileSync(path.join(out, 'api/v1/clients/index.json'), 'utf8')).toContain('"count":3074');
    // Back to the small build, for the tests below.
    expect(runCli(buildArgs(small)).status).toBe(0);
    previous = snapshot(out);
  }, 90_000);

  it('a lock file of an older version holding a live process id is a leftover, not a lock', () => {
    const legacy = path.join(path.dirname(out), '.out.lock');
    writeFileSync(legacy, String(process.pid));
    const result = runCli(buildArgs(small));
    expect(result.status).toBe(0);
    expect(existsSync(legacy)).toBe(false);
    previous = snapshot(out);
  }, 60_000);

  it('the next build succeeds, says what it cleaned, and leaves nothing beside the output but its lock', async () => {
    await buildAndKill('write', 50);
    const leftovers = readdirSync(path.dirname(out)).filter((entry) => entry !== 'out' && entry !== previous.link && entry !== LOCK);
    expect(leftovers.length).toBeGreaterThan(0); // what the killed build left
    const result = runCli(buildArgs(small));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`cleaned      what an interrupted build left: ${leftovers.sort().join(', ')}`);
    const after = snapshot(out);
    const siteFiles = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([file]) => !file.startsWith('_build')));
    expect(siteFiles(after.files)).toEqual(siteFiles(previous.files));
    await backgroundRemovalsDone(path.dirname(out));
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['out', after.link, LOCK].sort());
  }, 60_000);
});
