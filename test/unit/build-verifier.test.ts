import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build } from '../../src/build.ts';
import { BuildVerifier } from '../../src/check/build-verifier.ts';
import { IdSet } from '../../src/check/id-set.ts';
import { LinkShapes } from '../../src/check/link-shapes.ts';
import { readHead } from '../../src/check/page-head.ts';
import { joinVerifiedFacts } from '../../src/check/verified-facts.ts';
import { sharedVerifiedResults } from '../../src/check/verified-results.ts';
import { BodyBytes } from '../../src/produce/body-bytes.ts';
import { assemblePage, clientOpening, formatSuffix, recordLinkSuffix, registrantOpening, type ListPage } from '../../src/render/bodies.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { MAP_FILE, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { resolveRequest } from '../../src/routing/resolve-request.ts';
import { readManifest } from '../../src/write/manifest.ts';
import { snapshot } from '../support/folder-snapshot.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

// The map's resolution, counted: the check resolves each list's page links and each shape of record link once.
vi.mock('../../src/routing/resolve-request.ts', async (original) => {
  const real = await original<typeof import('../../src/routing/resolve-request.ts')>();
  return { ...real, resolveRequest: vi.fn(real.resolveRequest) };
});

describe('IdSet', () => {
  it('holds dense and ten-digit ids alike, and says which one set lacks', () => {
    const ids = new IdSet();
    for (const id of [0, 1, 31, 32, 33, 1_106_952_112, 9_007_199_254_740_991]) ids.add(id);
    expect(ids.size).toBe(7);
    expect(ids.has(32)).toBe(true);
    expect(ids.has(34)).toBe(false);
    expect(ids.has(1_106_952_113)).toBe(false);
    const some = new IdSet(ids.words());
    some.merge(new IdSet([[0, 0b110]])); // 1, 2
    expect([...some.without(new IdSet([[1, 0b11]]))]).toEqual([0, 1, 2, 31, 1_106_952_112, 9_007_199_254_740_991]);
    expect(() => ids.add(-1)).toThrow(/not a record id/);
  });

  it('grows to 60,000 scattered ten-digit ids and crosses to another thread as two typed arrays', () => {
    const ids = new IdSet();
    const scattered = Array.from({ length: 60_000 }, (_, i) => 600_000_000 + ((Math.imul(i + 1, 0x9e3779b1) >>> 0) & 0x1fffffff));
    for (const id of scattered) ids.add(id);
    const words = ids.toWords();
    expect(words.keys).toBeInstanceOf(Float64Array);
    expect(words.bits).toHaveLength(words.keys.length);
    const received = new IdSet(structuredClone(words));
    expect(received.size).toBe(new Set(scattered).size);
    expect(scattered.every((id) => received.has(id))).toBe(true);
    expect(scattered.some((id) => received.has(id + 1) && !scattered.includes(id + 1))).toBe(false);
    expect([...received.without(ids)]).toEqual([]);
  });
});

/**
 * The check a build makes as it writes: each case breaks one body the way a bug of the renderer
 * would (`faults`), and the build must fail naming the problem, the previous output untouched.
 */
describe('reading heads and record links without parsing', () => {
  const head = (count: string, next: string, previous: string) => `{"count":${count},"next":${next},"previous":${previous},"results":[`;

  it('reads a head of the contract form as JSON.parse does, and leaves every other form to it', () => {
    const link = '"https://m.example.org/api/v1/clients/?format=api&page=3"';
    for (const plain of [head('61', link, 'null'), head('0', 'null', 'null'), head('134719', 'null', '"https://m.example.org/api/v1/clients/client_state=%C3%A9/"'), head('7', '"é ü"', '""')]) {
      const { results, ...envelope } = JSON.parse(`${plain}]}`) as { results: unknown[] };
      expect(results).toEqual([]);
      expect(readHead(plain)).toEqual(envelope);
    }
    const others = [
      head('01', 'null', 'null'), // not JSON
      head('-1', 'null', 'null'),
      head('1.0', 'null', 'null'),
      head('1e3', 'null', 'null'),
      head('1234567890123456', 'null', 'null'), // more digits than a double holds exactly
      head('1', '"https:\\/\\/m.example.org\\/"', 'null'), // escapes: JSON.parse reads them
      head('1', '"a\u0001b"', 'null'), // a control character: not JSON
      head('1', '"open', 'null'),
      head('1', 'nul', 'null'),
      '{"next":null,"count":1,"previous":null,"results":[',
      `${head('1', 'null', 'null')}],"x":[`,
      head('1', 'null', 'null').slice(0, -1),
      ` ${head('1', 'null', 'null')}`,
    ];
    for (const other of others) expect(readHead(other), other).toBeUndefined();
  });

  it('reads record links in place: one shape per route and suffix, the id, nothing else', () => {
    const shapes = new LinkShapes(['https://m.example.org/api/v1/clients/', 'https://m.example.org/api/v1/registrants/']);
    const read = (link: string) => {
      const shape = shapes.read(link, 0, link.length);
      return shape === undefined ? undefined : { route: shape.route, suffix: shape.suffix, id: shapes.id };
    };
    expect(read('https://m.example.org/api/v1/clients/12/?format=api')).toEqual({ route: 0, suffix: '/?format=api', id: 12 });
    expect(read('https://m.example.org/api/v1/registrants/1106952112/')).toEqual({ route: 1, suffix: '/', id: 1106952112 });
    const first = shapes.read('https://m.example.org/api/v1/clients/1/', 0, 39);
    expect(shapes.read('https://m.example.org/api/v1/clients/98765/', 0, 43)).toBe(first);
    for (const other of ['https://m.example.org/api/v1/clients/', 'https://m.example.org/api/v1/clients/012/', 'https://m.example.org/api/v1/clients/x/', 'https://m.example.org/api/v1/clients/1/\\u003f', 'https://m.example.org/api/v1/clients/1/"', 'https://elsewhere.example.org/api/v1/clients/1/', 'https://m.example.org/api/v1/clients/?page=2']) {
      expect(read(other), other).toBeUndefined();
    }
    // Part of a text: the link ends where the caller says, though the text goes on.
    const text = 'x"https://m.example.org/api/v1/clients/5/?format=json","y"';
    expect(shapes.read(text, 2, text.indexOf('"', 2))?.suffix).toBe('/?format=json');
    expect(shapes.read(text, 2, 20)).toBeUndefined();

    // A result's url, when its id is the one the url names.
    const result = (id: string, url: string) => `{"id":${id},"url":"${url}","name":"A"}`;
    expect(shapes.readResult(result('12', 'https://m.example.org/api/v1/clients/12/?format=api'))?.suffix).toBe('/?format=api');
    expect(shapes.id).toBe(12);
    for (const other of [result('13', 'https://m.example.org/api/v1/clients/12/'), result('012', 'https://m.example.org/api/v1/clients/12/'), result('"12"', 'https://m.example.org/api/v1/clients/12/'), '{"url":"https://m.example.org/api/v1/clients/12/","id":12}', ' {"id":12,"url":"https://m.example.org/api/v1/clients/12/"}', '{"id":12,"url":"https://m.example.org/api/v1/clients/12/']) {
      expect(shapes.readResult(other), other).toBeUndefined();
    }

    // Shapes are few in a build: past sixteen per route, a new suffix is read as no shape (the caller parses).
    const many = new LinkShapes(['https://m.example.org/api/v1/clients/']);
    for (let i = 0; i < 16; i++) expect(many.read(`https://m.example.org/api/v1/clients/1/?v=${i}`, 0, 42 + String(i).length)).toBeDefined();
    expect(many.read('https://m.example.org/api/v1/clients/1/?v=16', 0, 44)).toBeUndefined();
    expect(many.read('https://m.example.org/api/v1/clients/2/?v=3', 0, 43)?.suffix).toBe('/?v=3');
  });
});

describe('the check made while writing', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  const options = () => resolveBuildOptions({ input: [input], out, baseUrl: 'https://m.example.org' });
  let before: ReturnType<typeof snapshot>;

  beforeAll(async () => {
    writeFileSync(input, ndjson(Array.from({ length: 60 }, (_, i) => clientRecord(i + 1, {}, { id: 900 + (i % 4) }))));
    await build(options());
    before = snapshot(out);
    writeFileSync(input, ndjson(Array.from({ length: 61 }, (_, i) => clientRecord(i + 1, {}, { id: 900 + (i % 4) }))));
  });
  afterAll(() => temp.remove());

  it.each([
    ['a next link that skips a page', { file: 'api/v1/clients/format=json/ordering=-name/index.json', replace: ['page=2', 'page=3'] as [string, string] }, /format=json\/ordering=-name\/index\.json: next leads to api\/v1\/clients\/format=json\/ordering=-name\/page=3\.json/],
    // A later page's links are read as the first page link of their list that was resolved, with their own number.
    ['a later page\'s next link past the last page', { file: 'api/v1/clients/format=json/ordering=-name/page=2.json', replace: ['page=3', 'page=4'] as [string, string] }, /ordering=-name\/page=2\.json: next leads to api\/v1\/clients\/format=json\/ordering=-name\/page=4\.json/],
    ['a later page\'s next link into another format\'s list', { file: 'api/v1/clients/format=json/ordering=-name/page=2.json', replace: ['format=json&ordering=-name&page=3', 'format=api&ordering=-name&page=3'] as [string, string] }, /ordering=-name\/page=2\.json: next leads to api\/v1\/clients\/format=api\/ordering=-name\/page=3\.json/],
    ['a later page\'s previous link to a page that does not exist', { file: 'api/v1/clients/ordering=-id/page=3.json', replace: ['ordering=-id&page=2', 'ordering=-id&page=0'] as [string, string] }, /ordering=-id\/page=3\.json: previous https:\/\/m\.example\.org\/api\/v1\/clients\/\?ordering=-id&page=0 answers 404/],
    ['a link to a client that has no file', { file: 'api/v1/clients/index.json', replace: ['/clients/7/', '/clients/999/'] as [string, string] }, /a link names api\/v1\/clients\/999\/index\.json, which the build did not write/],
    ['a link outside the base URL', { file: 'api/v1/registrants/901/index.json', replace: ['https://m.example.org', 'https://elsewhere.example.org'] as [string, string] }, /registrants\/901\/index\.json: url https:\/\/elsewhere\.example\.org\/api\/v1\/registrants\/901\/ is not under the base URL/],
    ['a record whose url names another record', { file: 'api/v1/clients/7/format=api.json', replace: ['/clients/7/', '/clients/8/'] as [string, string] }, /clients\/7\/format=api\.json: url leads to api\/v1\/clients\/8\/format=api\.json/],
    ['a wrong count', { file: 'api/v1/clients/client_state=TX/ordering=-id/page=2.json', replace: ['"count":61', '"count":62'] as [string, string] }, /client_state=TX\/ordering=-id\/page=2\.json: count 62/],
    ['a page that is not JSON', { file: 'api/v1/clients/registrant_id=900/index.json', body: '{"count":16,"next":null' }, /registrant_id=900\/index\.json: not JSON/],
    // The query bundle, checked by the answerer over the new folder against the pages and records it wrote.
    ['a chunk of the query bundle that does not read', { file: 'bundle/clients/1.bin', body: 'not a chunk' }, /the query bundle cannot answer \/api\/v1\/clients\/: bundle\/clients\/1\.bin: not a file of the query bundle/],
    ['a query bundle of another format', { file: 'bundle/manifest.json', body: '{"format":"lda-clients-mirror/query-bundle@0"}' }, /the query bundle cannot answer \/api\/v1\/clients\/: bundle\/manifest\.json: format lda-clients-mirror\/query-bundle@0/],
  ])('%s fails the build, the previous output intact', async (_name, fault, problem) => {
    await expect(build(options(), undefined, { faults: [fault] })).rejects.toThrow(problem);
    expect(snapshot(out)).toEqual(before);
  });

  it('finds record files no link reaches, and lists with pages missing', () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const verifier = new BuildVerifier(map);
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    // Every file but the third page of the unfiltered list in id order: its records are reached by no list of that ordering, but by the others.
    for (const file of files) if (file !== 'api/v1/clients/page=3.json') verifier.verify(file, readFileSync(path.join(out, file), 'utf8'));
    verifier.endUnit({ kind: 'list', ordering: '' });
    const { problems } = joinVerifiedFacts(map, [verifier.facts()]);
    expect(problems).toEqual(['api/v1/clients/: 2 pages, the map says 3']);

    // Only the record files: none is reached.
    const records = new BuildVerifier(map);
    for (const file of files) if (/\/[0-9]+\//.test(file)) records.verify(file, readFileSync(path.join(out, file), 'utf8'));
    const found = joinVerifiedFacts(map, [records.facts()], 1000).problems;
    expect(found).toContain('api/v1/clients/7/index.json is reached by no link');
    expect(found.filter((text) => text.endsWith('is reached by no link'))).toHaveLength(60 * 3);
  });

  /** A page of the built folder in the parts it was assembled from, as the renderer hands it over. */
  const partsOf = (file: string) => {
    const body = readFileSync(path.join(out, file), 'utf8');
    const head = body.slice(0, body.indexOf('"results":[') + '"results":['.length);
    const results = (JSON.parse(body) as { results: unknown[] }).results.map((result) => JSON.stringify(result));
    expect(assemblePage({ head, results })).toBe(body);
    return { body, head, results };
  };

  it('verifies a page from its parts: each client once per format, the same problems as parsing it whole', () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    const whole = new BuildVerifier(map);
    const parts = new BuildVerifier(map);
    for (const file of files) {
      const body = readFileSync(path.join(out, file), 'utf8');
      whole.verify(file, body);
      parts.verify(file, body, /\.json$/.test(file) && !/\/[0-9]+\//.test(file) && file.startsWith('api/') ? partsOf(file) : undefined);
    }
    for (const verifier of [whole, parts]) verifier.endUnit({ kind: 'list', ordering: '' });
    expect(joinVerifiedFacts(map, [parts.facts()])).toEqual(joinVerifiedFacts(map, [whole.facts()]));
    expect(joinVerifiedFacts(map, [parts.facts()]).problems).toEqual([]);

    // A client's body broken by the renderer (in the parts and the page alike): the page is not JSON.
    const page = 'api/v1/clients/ordering=-id/index.json';
    const { head, results } = partsOf(page);
    const broken = [results[0]!.replace('"name":', '"name"'), ...results.slice(1)];
    const brokenCheck = new BuildVerifier(map);
    brokenCheck.verify(page, assemblePage({ head, results: broken }), { head, results: broken });
    expect(brokenCheck.facts().problems).toEqual([expect.stringMatching(/ordering=-id\/index\.json: not JSON/)]);

    // A result that is JSON but no client: its links are missing.
    const nothing = ['null', ...results.slice(1)];
    const nothingCheck = new BuildVerifier(map);
    nothingCheck.verify(page, assemblePage({ head, results: nothing }), { head, results: nothing });
    expect(nothingCheck.facts().problems).toContain(`${page}: url of client undefined is missing`);

    // A head whose last `[` opens another key than results.
    const sneaky = head.replace('"results":[', '"results":[],"x\\"results":[');
    const sneakyCheck = new BuildVerifier(map);
    sneakyCheck.verify(page, assemblePage({ head: sneaky, results }), { head: sneaky, results });
    expect(sneakyCheck.facts().problems).toEqual([`${page}: the page's keys are not count, next, previous and results`]);

    // A link to a record the build does not have, found the same way from the parts as from the whole.
    const dangling = [results[0]!.replace('/clients/60/', '/clients/999/'), ...results.slice(1)];
    const danglingCheck = new BuildVerifier(map);
    danglingCheck.verify(page, assemblePage({ head, results: dangling }), { head, results: dangling });
    expect(joinVerifiedFacts(map, [danglingCheck.facts()]).problems).toContain('a link names api/v1/clients/999/index.json, which the build did not write');

    // A body that is not the assembly of its parts is parsed whole.
    const other = new BuildVerifier(map);
    other.verify(page, '{"count":61,"next":null', { head, results });
    expect(other.facts().problems).toEqual([expect.stringMatching(/ordering=-id\/index\.json: not JSON/)]);
  });

  it('shares the results one thread verified: no other thread parses them again, nor the record files they cover', () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    const pages = files.filter((file) => /\.json$/.test(file) && !/\/[0-9]+\//.test(file) && file.startsWith('api/v1/clients/')).map((file) => ({ file, ...partsOf(file) }));
    const records = files.filter((file) => /^api\/v1\/(clients|registrants)\/[0-9]+\//.test(file)).map((file) => ({ file, body: readFileSync(path.join(out, file), 'utf8') }));
    expect(records).toHaveLength((60 + 4) * 3);
    const suffixes = options().formats.map(recordLinkSuffix);
    expect(suffixes).toEqual(['/', '/?format=api', '/?format=json']);
    // Ids too sparse for a slot each: every thread keeps its own.
    expect(sharedVerifiedResults(suffixes, 2, 1_106_952_112)).toBeUndefined();

    /** Two threads' verifiers, sharing or not, each given every page; then the record files, to the first. */
    const run = (shared: boolean) => {
      const results = shared ? sharedVerifiedResults(suffixes, 60, 60) : undefined;
      const [first, second] = [new BuildVerifier(map, 50, results), new BuildVerifier(map, 50, results)];
      for (const { file, body, head, results: parts } of pages) first.verify(file, body, { head, results: parts });
      const parse = vi.spyOn(JSON, 'parse');
      try {
        for (const { file, body, head, results: parts } of pages) second.verify(file, body, { head, results: parts });
        const parsedByPages = parse.mock.calls.length;
        for (const { file, body } of records) first.verify(file, body);
        return { first, second, parsedByPages, parsedByRecords: parse.mock.calls.length - parsedByPages };
      } finally {
        parse.mockRestore();
      }
    };
    const alone = run(false);
    const together = run(true);
    expect([alone.parsedByPages, alone.parsedByRecords]).toEqual([60 * 3, (60 + 4) * 3]);
    // Only the registrants' record files are parsed: their bodies are inside the clients', not whole.
    expect([together.parsedByPages, together.parsedByRecords]).toEqual([0, 4 * 3]);
    // The second thread followed no record link: the first did, for both.
    expect(together.second.facts().linked).toEqual([]);
    for (const { first, second } of [alone, together]) {
      for (const verifier of [first, second]) verifier.endUnit({ kind: 'list', ordering: '' });
    }
    const joined = (run: typeof alone) => joinVerifiedFacts(map, [run.first.facts(), run.second.facts()]);
    expect(joined(together)).toEqual(joined(alone));
    expect(joined(together).problems).toEqual([]);

    // A record file whose text is not the verified result's (another length) is parsed, and its fault found.
    const { file, body } = records.find((record) => record.file === 'api/v1/clients/7/format=api.json')!;
    together.first.verify(file, body.slice(0, -1));
    expect(together.first.facts().problems).toEqual([expect.stringMatching(/clients\/7\/format=api\.json: not JSON/)]);
  });

  it('verifies a page in the bytes written: a client some thread verified in its format is known by its id and length, unread', () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    const formats = options().formats;
    const suffixes = formats.map(recordLinkSuffix); // '/', '/?format=api', '/?format=json'
    /** Each page as the renderer hands it over (its head and clients' rows), taken apart from the file built. */
    const pages = files
      .filter((file) => /\.json$/.test(file) && !/\/[0-9]+\//.test(file) && file.startsWith('api/v1/clients/'))
      .map((file) => {
        const { body, head, results } = partsOf(file);
        const format = file.includes('format=api/') ? 1 : file.includes('format=json/') ? 2 : 0;
        const base = map.baseUrl;
        const suffix = formatSuffix(formats[format]!);
        const clients = results.map((result) => {
          const { id, registrant } = JSON.parse(result) as { id: number; registrant: { id: number } };
          const opening = clientOpening(base, suffix, id);
          const between = result.lastIndexOf(registrantOpening(base, suffix, registrant.id));
          expect(result.startsWith(opening)).toBe(true);
          return { id, fields: result.slice(opening.length, between), registrantId: registrant.id, registrantFields: result.slice(between + registrantOpening(base, suffix, registrant.id).length, -2) };
        });
        const page: ListPage = { head, clients, format, base, suffix };
        return { file, body, page };
      });
    const bytes = new BodyBytes();
    const verifyAll = (verifier: BuildVerifier) => {
      for (const { file, body, page } of pages) {
        const written = bytes.listPage(page, false);
        expect(written.toString('utf8')).toBe(body);
        verifier.verifyListPageBytes(file, page, written, bytes, false);
      }
    };
    const shared = sharedVerifiedResults(suffixes, 60, 60);
    const [first, second] = [new BuildVerifier(map, 50, shared), new BuildVerifier(map, 50, shared)];
    const parse = vi.spyOn(JSON, 'parse');
    const readResult = vi.spyOn(LinkShapes.prototype, 'readResult');
    try {
      // The first thread parses each client once per format, the second none: it knows them all by id and length.
      verifyAll(first);
      expect(parse).toHaveBeenCalledTimes(60 * 3);
      parse.mockClear();
      readResult.mockClear();
      verifyAll(second);
      expect([parse.mock.calls.length, readResult.mock.calls.length]).toEqual([0, 0]);
      for (const verifier of [first, second]) verifier.endUnit({ kind: 'list', ordering: '' });
      expect([...first.facts().problems, ...second.facts().problems]).toEqual([]);
      expect(second.facts().links).toBe(first.facts().links);

      // A client's body that is not as long as the one verified for it is read from the bytes and parsed: here it is no JSON.
      const { file, page } = pages.find((candidate) => candidate.file === 'api/v1/clients/ordering=-id/index.json')!;
      const clients = [{ ...page.clients[0]!, fields: page.clients[0]!.fields.replace('"name":', '"name"') }, ...page.clients.slice(1)];
      const broken = { ...page, clients };
      second.verifyListPageBytes(file, broken, bytes.listPage(broken, false), bytes, false);
      expect([parse.mock.calls.length, readResult.mock.calls.length]).toEqual([1, 1]);
      expect(second.facts().problems).toEqual([expect.stringMatching(/ordering=-id\/index\.json: not JSON/)]);
    } finally {
      parse.mockRestore();
      readResult.mockRestore();
    }
  });

  it("resolves a list's page links and a shape's record links once, and names the files of the others by their number", () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    const records = files.filter((file) => /^api\/v1\/(clients|registrants)\/[0-9]+\//.test(file));
    const pages = files.filter((file) => file.startsWith('api/') && !records.includes(file));
    const read = (file: string) => readFileSync(path.join(out, file), 'utf8');
    const resolutions = vi.mocked(resolveRequest);

    const verifier = new BuildVerifier(map);
    resolutions.mockClear();
    for (const file of pages) verifier.verify(file, read(file));
    // Per list of more than one page: the link to its first page (no number) and the first link to another.
    const longLists = new Set(pages.filter((file) => file.endsWith('/page=2.json')).map((file) => path.posix.dirname(file)));
    expect(longLists.size).toBeGreaterThan(10);
    // Per shape of record link (clients and registrants, three formats): the first link met.
    expect(resolutions).toHaveBeenCalledTimes(longLists.size * 2 + 2 * 3);
    resolutions.mockClear();
    for (const file of records) verifier.verify(file, read(file));
    expect(resolutions).not.toHaveBeenCalled();
    verifier.endUnit({ kind: 'list', ordering: '' });
    expect(joinVerifiedFacts(map, [verifier.facts()]).problems).toEqual([]);

    // An id longer than the routes take is resolved as it stands, whatever its shape resolved to: it names no record.
    const shortIds = new BuildVerifier({ ...map, paths: { ...map.paths, idDigits: 1 } }, 1000);
    shortIds.verify('api/v1/clients/ordering=-id/page=3.json', read('api/v1/clients/ordering=-id/page=3.json')); // clients 10 to 1
    const page = 'api/v1/clients/ordering=-id/index.json'; // clients 60 to 36
    shortIds.verify(page, read(page));
    expect(shortIds.facts().problems).toContain(`${page}: url of client 60 https://m.example.org/api/v1/clients/60/ answers 404, not a file`);
  });

  it('checks a filtered unit value by value, each when the next begins', () => {
    const map = JSON.parse(readFileSync(path.join(out, MAP_FILE), 'utf8')) as RewriteMap;
    const files = readFileSync(path.join(out, '_build/manifest.tsv'), 'utf8').split('\n').slice(1, -1).map((line) => line.split('\t')[0]!);
    const unitFiles = files.filter((file) => /^api\/v1\/clients\/registrant_id=[0-9]+\/(format=[a-z]+\/)?index\.json$/.test(file));
    expect(unitFiles).toHaveLength(4 * 3);
    const verifier = new BuildVerifier(map);
    const unit = { kind: 'filtered', filter: 'registrant_id', ordering: '' } as const;
    verifier.startUnit(unit);
    for (const file of unitFiles) {
      if (file === 'api/v1/clients/registrant_id=900/format=api/index.json') continue;
      verifier.verify(file, readFileSync(path.join(out, file), 'utf8'));
      // Registrant 900's lists are checked as soon as 901's begin.
      if (file.startsWith('api/v1/clients/registrant_id=901/')) expect(verifier.facts().problems).toEqual(['api/v1/clients/registrant_id=900/format=api/: 0 pages, the map says 1']);
    }
    verifier.endUnit(unit);
    expect(verifier.facts().problems).toHaveLength(1);
    expect(verifier.facts().filteredValues).toEqual([{ filter: 'registrant_id', ordering: '', values: 4, digest: expect.any(String) }]);
  });

  it('the manifest lists every file once, with the SHA-1 of the bytes written', async () => {
    const { createHash } = await import('node:crypto');
    const entries = [];
    for await (const entry of readManifest(out)) entries.push(entry);
    expect(new Set(entries.map((entry) => entry.path)).size).toBe(entries.length);
    for (const entry of entries.slice(0, 200)) {
      const bytes = readFileSync(path.join(out, entry.path));
      expect([entry.path, bytes.length, createHash('sha1').update(bytes).digest('hex')]).toEqual([entry.path, entry.size, entry.hash]);
    }
  });
});
