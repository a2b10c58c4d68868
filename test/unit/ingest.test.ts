import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, describeProblem } from '../../src/errors.ts';
import { loadRecords } from '../../src/ingest/load-records.ts';
import { ROW_BATCH } from '../../src/ingest/read-client-rows.ts';
import { lineBatches, readRecordFile, type ReadItem } from '../../src/ingest/read-record-file.ts';
import { timestampMicros, validateClient } from '../../src/ingest/validate-record.ts';
import { RecordStore } from '../../src/store/record-store.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

let temp: ReturnType<typeof tempFolder>;
beforeEach(() => (temp = tempFolder()));
afterEach(() => temp.remove());

async function read(name: string, text: string): Promise<ReadItem[]> {
  const file = path.join(temp.path, name);
  writeFileSync(file, text);
  const items: ReadItem[] = [];
  for await (const item of readRecordFile(file, name)) items.push(item);
  return items;
}

const where = (items: ReadItem[]) =>
  items.map((item) => (item.kind === 'record' ? `record ${(item.value as { id: number }).id} line ${item.line}` : describeProblem(item.problem)));

describe('reading records files', () => {
  it('reads NDJSON with a BOM, CRLF line ends and blank lines, counting lines', async () => {
    const text = '\ufeff' + JSON.stringify(clientRecord(1)) + '\r\n\r\n' + JSON.stringify(clientRecord(2)) + '\r\n';
    expect(where(await read('a.ndjson', text))).toEqual(['record 1 line 1', 'record 2 line 3']);
  });

  it('reports a malformed NDJSON line with its line number and goes on', async () => {
    const text = `${JSON.stringify(clientRecord(1))}\n{"id": 2,\n${JSON.stringify(clientRecord(3))}\n`;
    const items = where(await read('a.jsonl', text));
    expect(items[0]).toBe('record 1 line 1');
    expect(items[1]).toMatch(/^a\.jsonl:2: malformed JSON: /);
    expect(items[2]).toBe('record 3 line 3');
  });

  it('streams a pretty-printed JSON array, each element with the line it starts on', async () => {
    const text = JSON.stringify([clientRecord(1), clientRecord(2, { name: 'A "quoted" ] { name' })], null, 2);
    const items = await read('a.json', text);
    const starts = text.split('\n').flatMap((line, i) => (line === '  {' ? [i + 1] : []));
    expect(where(items)).toEqual([`record 1 line ${starts[0]}`, `record 2 line ${starts[1]}`]);
    expect(items[1]).toMatchObject({ index: 1, value: { name: 'A "quoted" ] { name' } });
  });

  it('reports a broken array element by line and index', async () => {
    const items = await read('a.json', '[\n{"id": 1, "name": "A"},\n{"id": 2 "name": "B"}\n]');
    expect(items[1]!.kind === 'problem' && describeProblem(items[1]!.problem)).toMatch(/^a\.json:3 \(record 1 of the array\): malformed JSON/);
  });

  it('reports an unterminated array', async () => {
    const last = (await read('a.json', '[\n{"id": 1, "name": "A"},\n')).at(-1)!;
    expect(last.kind === 'problem' && describeProblem(last.problem)).toMatch(/^a\.json:3: malformed JSON: .*ends before/);
  });

  it('reads a saved page of the live API, pretty-printed or not', async () => {
    const page = { count: 2, next: null, previous: null, results: [clientRecord(1), clientRecord(2)] };
    expect(where(await read('page.json', JSON.stringify(page)))).toEqual(['record 1 line 1', 'record 2 line 1']);
    const pretty = JSON.stringify(page, null, 2);
    const lines = where(await read('pretty.json', pretty));
    expect(lines[1]).toBe(`record 2 line ${pretty.split('\n').findIndex((l) => l.includes('"id": 2,')) + 1}`);
  });

  it('reads saved pages as NDJSON lines too', async () => {
    const pages = [{ results: [clientRecord(1)] }, { results: [clientRecord(2), clientRecord(3)] }];
    expect(where(await read('pages.ndjson', ndjson(pages)))).toEqual(['record 1 line 1', 'record 2 line 2', 'record 3 line 2']);
  });

  it('reports malformed pretty-printed JSON with its line', async () => {
    const items = await read('bad.json', '{\n  "results": [\n    {"id": 1,}\n  ]\n}');
    expect(items[0]!.kind === 'problem' && describeProblem(items[0]!.problem)).toMatch(/^bad\.json:3: malformed JSON/);
  });
});

describe('splitting a file into lines', () => {
  async function bothWays(text: string | Buffer): Promise<{ ours: string[]; readline: string[] }> {
    const file = path.join(temp.path, 'lines.ndjson');
    writeFileSync(file, text);
    const ours: string[] = [];
    for await (const lines of lineBatches(file)) ours.push(...lines);
    const readline: string[] = [];
    for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) readline.push(line);
    return { ours, readline };
  }

  it.each([
    ['LF', 'a\nb\n'],
    ['no final line end', 'a\nb'],
    ['CRLF', 'a\r\nb\r\n'],
    ['a CR alone ends a line', 'a\rb\nc'],
    ['CR CR LF', 'a\r\r\nb'],
    ['a final CR', 'a\nb\r'],
    ['blank lines', '\n\r\n\r\r\nx\n\n'],
    ['non-ASCII and a BOM', '\ufeff{"name":"Société Générale"}\n{"name":"東京"}\r\n'],
    ['empty', ''],
  ])('gives the lines readline gives: %s', async (_name, text) => {
    const { ours, readline } = await bothWays(text);
    expect(ours).toEqual(readline);
  });

  it('gives the lines readline gives across the chunks of a large file, and for lines longer than a chunk', async () => {
    // Lines of every length around the 1 MiB chunk, with CRLF, lone CRs and characters of 2 to 4 bytes.
    const parts: string[] = [];
    const ends = ['\n', '\r\n', '\r', '\n\n'];
    for (let i = 0, length = 0; length < 3.2 * 2 ** 20; i++) {
      // Now and then a line longer than the buffer it is read into.
      parts.push(i % 500 === 499 ? `${'東'.repeat(150_000)}\r\n` : `${'é東𝄞x'.repeat(i % 97)}${i}${ends[i % ends.length]}`);
      length += parts.at(-1)!.length;
    }
    const { ours, readline } = await bothWays(parts.join(''));
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours).toEqual(readline);
  });
});

describe('validating records', () => {
  const at = { file: 'in.ndjson', line: 7 };
  const problems = (value: unknown) => {
    const result = validateClient(value, at);
    return result.ok ? [] : result.problems.map(describeProblem);
  };

  it('accepts a record as the live service returns it', () => {
    expect(validateClient(clientRecord(1), at)).toMatchObject({ ok: true, client: { id: 1, registrantId: 900 } });
  });

  it('names the file, line and field of each problem', () => {
    const { id: _, ...noId } = clientRecord(1);
    expect(problems(noId)).toEqual(['in.ndjson:7: field "id": is missing (an integer is required)']);
    expect(problems(clientRecord(1, {}, { id: '900' }))).toEqual(['in.ndjson:7: field "registrant.id": must be a non-negative integer, got "900"']);
    expect(problems(clientRecord(1, { name: null, effective_date: '1/2/2024' }))).toEqual([
      'in.ndjson:7: field "name": must be a string, got null',
      'in.ndjson:7: field "effective_date": must be a YYYY-MM-DD date or null, got "1/2/2024"',
    ]);
    expect(problems({ ...clientRecord(1), registrant: null })).toEqual(['in.ndjson:7: field "registrant": must be a registrant object, got null']);
    expect(problems([1])).toEqual(['in.ndjson:7: a client record must be a JSON object, got [1]']);
    expect(problems(clientRecord(1.5))).toEqual(['in.ndjson:7: field "id": must be a non-negative integer, got 1.5']);
    expect(problems(clientRecord(2 ** 53))).toHaveLength(1);
  });

  it('reads dt_updated with its offset, to the microsecond', () => {
    expect(timestampMicros('2025-07-24T11:34:51.894845-04:00')! - timestampMicros('2025-07-24T15:34:51.894844+00:00')!).toBe(1);
    expect(timestampMicros('2025-07-24T11:34:51-05:00')).toBeGreaterThan(timestampMicros('2025-07-24T12:34:50-04:00')!);
    expect(timestampMicros('yesterday')).toBeUndefined();
  });
});

describe('loading records into the store (a reading thread beside the storing one)', () => {
  const input = (name: string, records: unknown[]) => {
    const file = path.join(temp.path, name);
    writeFileSync(file, ndjson(records));
    return file;
  };

  it('stores every batch in input order: a later copy replaces an earlier one batches before it', async () => {
    const total = ROW_BATCH * 6 + 7;
    const records = Array.from({ length: total }, (_, i) => clientRecord(i + 1));
    records[total - 1] = clientRecord(3, { name: 'THE LATER COPY' });
    const store = RecordStore.create(path.join(temp.path, 'store.db'));
    const progress: number[] = [];
    const stats = await loadRecords([input('a.ndjson', records)], store, { problemLimit: 10, cwd: temp.path, onProgress: (read) => progress.push(read) });
    expect(stats).toEqual({ files: 1, recordsRead: total, skipped: 0, problems: [], problemsTruncated: false });
    expect(store.counts()).toMatchObject({ clients: total - 1, replacedClients: 1 });
    expect([...store.clientsInIdRange(3, 4)][0]!.fields).toContain('"name":"THE LATER COPY"');
    expect(progress.at(-1)).toBe(total);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    store.destroy();
  });

  it('fails with every problem of the input, named by file and line, as reading alone does', async () => {
    const good = input('good.ndjson', [clientRecord(1), clientRecord(2)]);
    const bad = path.join(temp.path, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(clientRecord(3))}\n{"id": 4,\n${JSON.stringify(clientRecord(5, { name: null }))}\n`);
    const store = RecordStore.create(path.join(temp.path, 'store.db'));
    const failure = await loadRecords([good, bad], store, { problemLimit: 10, cwd: temp.path }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as InputError).problems.map(describeProblem)).toEqual([
      expect.stringMatching(/^bad\.ndjson:2: malformed JSON: /),
      'bad.ndjson:3: field "name": must be a string, got null',
    ]);
    // With --skip-invalid the valid ones are loaded, and the others counted.
    const skipping = RecordStore.create(path.join(temp.path, 'skipping.db'));
    const stats = await loadRecords([good, bad], skipping, { problemLimit: 10, cwd: temp.path, skipInvalid: true });
    expect([stats.recordsRead, stats.skipped, skipping.counts().clients]).toEqual([5, 2, 3]);
    store.destroy();
    skipping.destroy();
  });

  it('fails with the error of the file system, its code kept, when an input cannot be read', async () => {
    const folder = path.join(temp.path, 'a-folder.ndjson');
    mkdirSync(folder);
    const store = RecordStore.create(path.join(temp.path, 'store.db'));
    await expect(loadRecords([folder], store, { problemLimit: 10 })).rejects.toMatchObject({ code: 'EISDIR' });
    store.destroy();
  });

  it("stops the reading thread when the store fails, and fails with the store's error", async () => {
    const records = Array.from({ length: ROW_BATCH * 12 }, (_, i) => clientRecord(i + 1));
    let batches = 0;
    const failing = {
      transaction(work: () => void) {
        if (++batches === 2) throw new Error('SQLITE_FULL: database or disk is full');
        work();
      },
      addRegistrant() {},
      addClient() {},
    } as unknown as RecordStore;
    await expect(loadRecords([input('a.ndjson', records)], failing, { problemLimit: 10 })).rejects.toThrow('SQLITE_FULL');
    expect(batches).toBe(2);
  });
});
