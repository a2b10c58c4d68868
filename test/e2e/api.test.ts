import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BuildBusyError,
  InputError,
  OptionsError,
  UpstreamError,
  build,
  check,
  emit,
  preview,
  sync,
  type BuildSummary,
  type ProgressEvent,
  type RunningPreview,
} from '../../src/index.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The library as a script uses it (`import { build, preview } from 'lda-clients-mirror'`): the
 * command line's options and defaults, results as values, failures as typed errors, and never an
 * exit of the caller's process.
 */
describe('the programmatic entry', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'site');
  const events: ProgressEvent[] = [];
  let summary: BuildSummary;
  let running: RunningPreview | undefined;
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Error(`process.exit(${String(code)}) called by the library`);
  });

  beforeAll(async () => {
    summary = await build(
      { input: [path.join(setFolder('lda-real'), 'input.ndjson')], out, baseUrl: CONFORMANCE_BASE_URL },
      { onProgress: (event) => events.push(event) },
    );
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    exit.mockRestore();
    temp.remove();
  });

  it('builds a conformance set and resolves to the summary, without warnings when the base URL is given', () => {
    expect(summary.out).toBe(out);
    expect(path.dirname(summary.buildDir)).toBe(temp.path);
    expect(summary.recordsRead).toBe(74);
    expect(summary.clients).toBe(74);
    expect(summary.files).toBeGreaterThan(74 * 3);
    expect(summary.warnings).toEqual([]);
  });

  it('reports each stage, and the write stage counts to a total known in advance', () => {
    expect(events.filter((event) => event.done === undefined && event.text === undefined).map((event) => event.stage)).toEqual([
      'read',
      'index',
      'write',
      'switch',
    ]);
    const writes = events.filter((event) => event.stage === 'write' && event.done !== undefined);
    expect(writes.at(-1)).toMatchObject({ done: summary.files, total: summary.files, unit: 'files' });
  });

  it('previews the build on a free port, answering with the bytes of the conformance set', async () => {
    running = await preview({ dir: out, port: 0 });
    const response = await fetch(`${running.url}/api/v1/clients/?page=2`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(readFileSync(path.join(setFolder('lda-real'), 'bodies', '0003.json')));
    await running.close();
    running = undefined;
  });

  it('checks the build and emits a host configuration for it', async () => {
    const checked = await check({ dir: out });
    expect(checked.problems).toEqual([]);
    expect(checked.files).toBe(summary.files);
    const emitted = await emit({ host: 'nginx', dir: out, out: path.join(temp.path, 'nginx.conf') });
    expect(emitted).toMatchObject({ host: 'nginx', files: [path.join(temp.path, 'nginx.conf')], clients: 74 });
  });

  it('a bad record rejects with an InputError whose problems name the file, line and field', async () => {
    const input = path.join(temp.path, 'bad.ndjson');
    const { id: _, ...noId } = clientRecord(2);
    writeFileSync(input, ndjson([clientRecord(1), noId]));
    const failure = await build({ input, out: path.join(temp.path, 'bad-out'), baseUrl: CONFORMANCE_BASE_URL }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputError);
    const problems = (failure as InputError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, field: 'id' });
    expect(problems[0]!.file).toMatch(/bad\.ndjson$/);
  });

  it.each(['mirror.example.org', 'https://mirror.example.org/api'])('a base URL %j rejects with an OptionsError naming --base-url', async (baseUrl) => {
    const failure = build({ input: [path.join(setFolder('lda-real'), 'input.ndjson')], out: path.join(temp.path, 'never'), baseUrl });
    await expect(failure).rejects.toBeInstanceOf(OptionsError);
    await expect(failure).rejects.toThrow(/--base-url must/);
  });

  it('other bad options reject with an OptionsError too, before anything is touched', async () => {
    await expect(preview({ dir: out, port: 70000 })).rejects.toThrow(OptionsError);
    await expect(emit({ host: 'iis', out: path.join(temp.path, 'x') })).rejects.toThrow(/unknown host "iis"/);
    await expect(check({ dir: path.join(temp.path, 'nothing-built-here') })).rejects.toThrow(OptionsError);
    await expect(sync({ upstream: 'lda.senate.gov', out: path.join(temp.path, 'records') })).rejects.toThrow(OptionsError);
  });

  it('exports the other error classes for instanceof', () => {
    expect(new BuildBusyError('busy')).toBeInstanceOf(Error);
    expect(new UpstreamError('down')).toBeInstanceOf(Error);
  });

  it('never exits the process', () => {
    expect(exit).not.toHaveBeenCalled();
    expect(process.exitCode ?? 0).toBe(0);
  });
});
