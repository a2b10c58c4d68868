import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { backgroundRemovalsDone, snapshot } from '../support/folder-snapshot.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The build command end to end, in a child process: a good build, then bad inputs that must fail
 * with a message naming the file and line (or the option) and leave that build exactly as it was.
 */
describe('npm run build', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'site', 'out');
  const good = path.join(temp.path, 'good.ndjson');
  let before: ReturnType<typeof snapshot>;
  let first: ReturnType<typeof runCli>;

  beforeAll(() => {
    writeFileSync(good, ndjson([clientRecord(1), clientRecord(2), clientRecord(3)]));
    first = runCli(['build', '--input', good, '--out', out, '--base-url', 'https://mirror.example.org/']);
    expect(first.stderr).not.toMatch(/failed|problems/);
    expect(first.status).toBe(0);
    before = snapshot(out);
  }, 60_000);
  afterAll(() => temp.remove());

  it('prints a summary and makes the output a link to a complete build', () => {
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(Object.keys(before.files)).toContain('api/v1/clients/index.json');
    expect(Object.keys(before.files)).toContain('api/v1/clients/2/format=api.json');
    expect(Object.keys(before.files)).toContain('api/v1/registrants/900/format=json.json');
    expect(Object.keys(before.files)).toContain('rewrite-map.json');
  });

  it('the summary says what was written, where, and how long it took', () => {
    const [head] = first.stdout.split('\n');
    expect(head).toContain(`Built ${out} in `);
    expect(head).toMatch(/ in [0-9.]+ s$/);
    expect(first.stdout).toContain(`  output       ${out} -> ${before.link}/ (what changed: _build/changed.txt, _build/removed.txt)`);
    const files = /^ {2}files {8}([0-9,]+), ([0-9.]+) MB: ([0-9,]+) written \(([0-9.]+) MB\), 0 unchanged \(linked\), 0 removed$/m.exec(first.stdout);
    expect(files, first.stdout).not.toBeNull();
    // A first build writes every file, all of its bytes.
    expect([files![3], files![4]]).toEqual([files![1], files![2]]);
    expect(first.stdout).toMatch(/^ {2}time {9}[0-9.]+ s \(read [0-9.]+, index [0-9.]+, write [0-9.]+, switch [0-9.]+\)$/m);
  });

  it('off a terminal, progress is plain lines: one as each stage starts, no bar', () => {
    for (const stage of ['read', 'index', 'write', 'switch']) expect(first.stderr).toMatch(new RegExp(`^${stage}: started$`, 'm'));
    expect(first.stderr).not.toMatch(/[\r\x1b█░]/);
  });

  function failingBuild(name: string, text: string | undefined, args: string[] = []) {
    const input = path.join(temp.path, name);
    if (text !== undefined) writeFileSync(input, text);
    return runCli(['build', '--input', input, '--out', out, '--base-url', 'https://mirror.example.org', ...args]);
  }

  function expectUnchanged() {
    expect(snapshot(out)).toEqual(before);
    // Nothing left beside the output but the build it points at, and the lock every build takes.
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['out', before.link, '.out.lock.sqlite'].sort());
  }

  it('a malformed JSON line names the file and line', () => {
    const result = failingBuild('malformed.ndjson', `${JSON.stringify(clientRecord(1))}\n{"id": 2, "name": \n`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/malformed\.ndjson:2: malformed JSON/);
    expectUnchanged();
  });

  it('a record without id names the file, line and field', () => {
    const { id: _, ...noId } = clientRecord(5);
    const result = failingBuild('no-id.ndjson', ndjson([clientRecord(4), clientRecord(6), noId]));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no-id\.ndjson:3: field "id": is missing/);
    expectUnchanged();
  });

  it('a registrant whose id is not an integer names the file, line and field', () => {
    const result = failingBuild('registrant.ndjson', ndjson([clientRecord(7, {}, { id: 'R-900' })]));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/registrant\.ndjson:1: field "registrant\.id": must be a non-negative integer, got "R-900"/);
    expectUnchanged();
  });

  it('lists every problem of a run, not only the first', () => {
    const result = failingBuild('many.ndjson', ndjson([{ id: 'a' }, clientRecord(2), { name: 'x' }]));
    expect(result.stderr).toMatch(/many\.ndjson:1: field "id"/);
    expect(result.stderr).toMatch(/many\.ndjson:3: field "id"/);
    expectUnchanged();
  });

  it('an input folder with no records files names the folder', () => {
    const empty = path.join(temp.path, 'empty-folder');
    mkdirSync(empty);
    writeFileSync(path.join(empty, 'notes.txt'), 'not records');
    const result = failingBuild('empty-folder', undefined);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/empty-folder: this folder holds no \.ndjson, \.jsonl or \.json records file/);
    expectUnchanged();
  });

  it.each(['mirror.example.org', 'ftp://mirror.example.org', 'https://mirror.example.org/api', 'not a url'])(
    'a base URL %j that is not an absolute http(s) origin names --base-url',
    (baseUrl) => {
      const result = runCli(['build', '--input', good, '--out', out, '--base-url', baseUrl]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/--base-url must/);
      expectUnchanged();
    },
  );

  it('an unknown option or format is named', () => {
    expect(runCli(['build', '--input', good, '--out', out, '--base-url', 'http://x.test', '--formats', 'xml']).stderr).toMatch(
      /--formats: unknown format "xml"/,
    );
    expect(runCli(['build', '--inptu', good]).stderr).toMatch(/--inptu/);
    expectUnchanged();
  });

  it.each([
    ['client_stat', /--filters: unknown filter "client_stat"; choose from registrant_id, client_state/],
    ['client_name', /--filters: client_name cannot be precomputed as files/],
    ['none,client_state', /--filters none cannot be combined/],
    [',', /--filters needs a list of filters/],
  ])('a bad --filters %j is named, and nothing is written', (filters, message) => {
    const result = runCli(['build', '--input', good, '--out', out, '--base-url', 'http://x.test', '--filters', filters]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expectUnchanged();
  });

  it('refuses to replace a folder it did not build', () => {
    const mine = path.join(temp.path, 'precious');
    mkdirSync(mine);
    writeFileSync(path.join(mine, 'thesis.txt'), 'years of work');
    const result = runCli(['build', '--input', good, '--out', mine, '--base-url', 'http://x.test']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/did not build; refusing to replace it/);
    expect(existsSync(path.join(mine, 'thesis.txt'))).toBe(true);
  });

  it('a second build replaces the first and keeps it as the previous build (for readers still on it), from a process of its own', async () => {
    const next = path.join(temp.path, 'next.ndjson');
    writeFileSync(next, ndjson([clientRecord(1), clientRecord(2)]));
    const result = runCli(['build', '--input', next, '--out', out, '--base-url', 'https://mirror.example.org']);
    expect(result.status).toBe(0);
    const after = snapshot(out);
    expect(after.link).not.toBe(before.link);
    expect(Object.keys(after.files)).not.toContain('api/v1/clients/3/index.json');
    await backgroundRemovalsDone(path.dirname(out));
    // The first build stays until the next switch, named by .out.previous, so that a preview still
    // reading it never finds a file gone; the build before it would be removed.
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['out', after.link, before.link, '.out.previous', '.out.lock.sqlite'].sort());
    expect(path.basename(readlinkSync(path.join(path.dirname(out), '.out.previous')))).toBe(before.link);
  });

  it('--skip-invalid builds the valid records and lists what it skipped; records in are records out', () => {
    const input = path.join(temp.path, 'skip.ndjson');
    writeFileSync(input, `${ndjson([clientRecord(1), { id: 'x' }, clientRecord(2), clientRecord(1, { name: 'AGAIN' })])}{not json\n`);
    const other = path.join(temp.path, 'skip-out');
    const result = runCli(['build', '--input', input, '--out', other, '--base-url', 'http://x.test', '--skip-invalid']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('5 read from 1 file(s) = 2 clients + 1 replaced by a later copy of their id + 2 skipped as invalid');
    expect(result.stdout).toMatch(/skip\.ndjson:2: field "id"/);
    expect(result.stdout).toMatch(/skip\.ndjson:5: malformed JSON/);
  });

  it('without options reads data/, writes dist/ and links to the preview, warning that --base-url was not given', () => {
    const cwd = path.join(temp.path, 'defaults');
    mkdirSync(path.join(cwd, 'data'), { recursive: true });
    writeFileSync(path.join(cwd, 'data', 'records.ndjson'), ndjson([clientRecord(1), clientRecord(2)]));
    const result = runCli(['build'], cwd);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^warning: no --base-url given: every link points at http:\/\/localhost:3000/m);
    expect(lstatSync(path.join(cwd, 'dist')).isSymbolicLink()).toBe(true);
    const record = JSON.parse(readFileSync(path.join(cwd, 'dist', 'api/v1/clients/2/index.json'), 'utf8'));
    expect(record.url).toBe('http://localhost:3000/api/v1/clients/2/');
    // Given --base-url, no warning.
    const given = runCli(['build', '--base-url', 'https://mirror.example.org'], cwd);
    expect(given.status, given.stderr).toBe(0);
    expect(given.stderr).not.toContain('warning');
  });

  it('--help describes every option', () => {
    const help = runCli(['build', '--help']);
    expect(help.status).toBe(0);
    for (const option of ['--input', '--out', '--base-url', '--formats', '--filters', '--skip-invalid']) expect(help.stdout).toContain(option);
  });
});
