import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createAnswerer, MAX_TARGET_LENGTH, TARGET_TOO_LONG, type Reply } from '../../src/answer/answerer.ts';
import { QueryBundle } from '../../src/bundle/query-bundle.ts';
import { searchText } from '../../src/bundle/search-text.ts';

/**
 * The answerer where code runs (contract section 9) on what no conformance case sends: hostile
 * requests get the reference's answer or a 4xx, never an error, and a long search lets the server
 * answer others between its segments. (Its CPU time is measured by `npm run bench`, not here.)
 */
describe('the answerer over the query bundle of exact-3k', () => {
  const dir = () => inject('builtSets')['exact-3k']!;
  const read = async (file: string) => readFileSync(path.join(dir(), 'bundle', file));
  const records = (): { name: string }[] =>
    readFileSync(new URL('../conformance-sets/exact-3k/input.ndjson', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string });
  const answer = (target: string): Promise<Reply> => createAnswerer(read).answer('GET', target);
  const count = (reply: Reply) => (JSON.parse(reply.body) as { count: number }).count;

  it('a 10,000-character name searched is a page of no client', async () => {
    const reply = await answer(`/api/v1/clients/?client_name=${'a'.repeat(10_000)}`);
    expect([reply.status, count(reply)]).toEqual([200, 0]);
  });

  it('1,000 query fields are read, more are refused as Django refuses them', async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');
    const thousand = await answer(`/api/v1/clients/?${fields(999)}&page=2`);
    expect([thousand.status, count(thousand)]).toEqual([200, 3000]);
    expect(JSON.parse(thousand.body).next).toContain('p998=998');
    const more = await answer(`/api/v1/clients/?${fields(1000)}&page=2`);
    expect(more.status).toBe(400);
  });

  it('a query string up to the 16 KiB target is answered, its parameters kept in the links; a longer target is the documented 414', async () => {
    const junk = 'x'.repeat(MAX_TARGET_LENGTH - '/api/v1/clients/?junk=&page=2'.length);
    const reply = await answer(`/api/v1/clients/?junk=${junk}&page=2`);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).previous).toBe(`http://mirror.test/api/v1/clients/?junk=${junk}`);
    for (const length of [MAX_TARGET_LENGTH + 1, 100_000]) {
      const long = await answer(`/api/v1/clients/?junk=${'x'.repeat(length - '/api/v1/clients/?junk='.length)}`);
      expect([long.status, long.body]).toEqual([414, JSON.stringify({ detail: TARGET_TOO_LONG })]);
    }
  });

  it('repeated and redundant ordering terms cost one sort: 1,800 terms answer as the terms in effect', async () => {
    const terms = (list: string[], times: number) => Array.from({ length: times }, () => list).flat().join(',');
    const many = await answer(`/api/v1/clients/?ordering=${terms(['-name', 'effective_date', 'name'], 600)}&page=3`);
    const few = await answer('/api/v1/clients/?ordering=-name,effective_date,name&page=3');
    expect(many.status).toBe(200);
    expect(JSON.parse(many.body).results).toEqual(JSON.parse(few.body).results);
  });

  it('percent sequences that are not UTF-8 are read as U+FFFD, as Python reads them', async () => {
    const reply = await answer('/api/v1/clients/?client_name=%ff%C3&x=%E2%9C');
    expect([reply.status, count(reply)]).toEqual([200, 0]);
    expect(JSON.parse(reply.body).next).toBeNull();
    const listed = await answer('/api/v1/clients/?x=%E2%9C&page=2');
    expect(JSON.parse(listed.body).next).toBe('http://mirror.test/api/v1/clients/?page=3&x=%EF%BF%BD');
  });

  it('a NUL in a name searched is the reference\'s 400, naming each parameter', async () => {
    const reply = await answer('/api/v1/clients/?registrant_name=a%00&client_name=%00b');
    expect([reply.status, reply.body]).toEqual([400, '{"client_name":["Null characters are not allowed."],"registrant_name":["Null characters are not allowed."]}']);
  });

  it('a substring most names hold, last page in descending name order, counts them all', async () => {
    const holding = records().filter((record) => searchText(record.name).includes('E')).length;
    expect(holding).toBeGreaterThan(2000);
    const reply = await answer('/api/v1/clients/?client_name=e&ordering=-name&page=last');
    expect([reply.status, count(reply)]).toEqual([200, holding]);
    expect(JSON.parse(reply.body).results.length).toBe(holding % 25 || 25);
  });

  it('lets the server answer others once a search has read its lists', async () => {
    let pauses = 0;
    const answerer = createAnswerer(read, { pause: async () => void pauses++ });
    await answerer.answer('GET', '/api/v1/clients/?client_name=bank');
    expect(pauses).toBe(1);
    await answerer.answer('GET', '/api/v1/clients/?page=2');
    expect(pauses).toBe(1);
  });

  it('answers searches that interleave at their pauses as it answers each alone (nothing one keeps between its steps is shared)', async () => {
    const targets = ['client_name=bank', 'client_name=ion&ordering=-name', 'client_name=e&client_state=CA&ordering=-effective_date&page=2', 'client_name=assoc&page_size=10'].map(
      (query) => `/api/v1/clients/?${query}`,
    );
    const alone = [];
    for (const target of targets) alone.push((await createAnswerer(read).answer('GET', target)).body);
    const yielding = createAnswerer(read, { pause: () => new Promise((resolve) => setImmediate(resolve)) });
    const together = await Promise.all(targets.map(async (target) => (await yielding.answer('GET', target)).body));
    expect(together).toEqual(alone);
    expect(new Set(alone).size).toBe(targets.length);
  });

  it('answers only once every read it started has finished, so that a Worker, which cancels what an answer leaves running, keeps what it read', async () => {
    let pending = 0;
    let reads = 0;
    // Each file arrives after a delay of its own (0 to 15 ms), so that reads of one wave finish out of order.
    const counted = async (file: string) => {
      pending++;
      reads++;
      try {
        await new Promise((resolve) => setTimeout(resolve, [...file].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 16));
        return await read(file);
      } finally {
        pending--;
      }
    };
    const answerer = createAnswerer(counted);
    // Long names with three letters no name holds, here and there: a search that stops at an absent key.
    const names = records().map((record) => record.name).filter((name) => name.length > 30).slice(0, 20);
    const searches = names.flatMap((name) => [`${name}QXZ`, `QXZ${name}`, `${name.slice(0, 15)}QXZ${name.slice(15)}`]);
    for (const search of searches) {
      const reply = await answerer.answer('GET', `/api/v1/clients/?client_name=${encodeURIComponent(search)}`);
      expect([reply.status, count(reply), pending]).toEqual([200, 0, 0]);
    }
    // Each fragment was read once: asked again, the searches read nothing.
    const before = reads;
    for (const search of searches) await answerer.answer('GET', `/api/v1/clients/?client_name=${encodeURIComponent(search)}`);
    expect(reads).toBe(before);
  });

  it('answers a list page asked again from the pages it keeps, reading nothing, and a page of another query as before', async () => {
    let reads = 0;
    const counted = async (file: string) => (reads++, read(file));
    // No file kept: whatever is answered again without a read was kept as a page.
    const keep = (pages: number) => ({ files: { index: 0, records: 0 }, results: 0, pages });
    const targets = ['/api/v1/clients/?client_name=ASSOC&page=2', '/api/v1/clients/?client_name=ASSOC&page=2&x=1', '/api/v1/registrants/?ordering=name'];
    for (const pages of [1024 * 1024, 0]) {
      const answerer = createAnswerer(counted, { keep: keep(pages) });
      const first = await Promise.all(targets.map((target) => answerer.answer('GET', target)));
      const before = reads;
      const again = await Promise.all(targets.map((target) => answerer.answer('GET', target)));
      expect(again).toEqual(first);
      expect(reads > before).toBe(pages === 0);
    }
    // The two pages differ only by a parameter their links repeat: each is its own.
    const answerer = createAnswerer(read);
    const [plain, withX] = [await answerer.answer('GET', targets[0]!), await answerer.answer('GET', targets[1]!)];
    expect(JSON.parse(withX.body).next).toContain('x=1');
    expect(JSON.parse(plain.body).next).not.toContain('x=1');
  });

  it('keeps the files it read within its byte budget, reading again only those it let go', async () => {
    const every = async (bundle: QueryBundle) => {
      for (let index = 0; index < bundle.manifest.clients; index++) await bundle.clientAt(index);
    };
    const chunks = (await QueryBundle.open(read))!.manifest.chunks.count;
    const roomy = (await QueryBundle.open(read))!;
    await every(roomy);
    await every(roomy);
    // The manifest, the chunks' directory, each chunk once.
    expect(roomy.reads).toBe(2 + chunks);
    const tight = (await QueryBundle.open(read, { budgets: { index: 40 * 1024, records: 24 * 1024 } }))!;
    await every(tight);
    expect(tight.keptBytes).toBeLessThanOrEqual(64 * 1024);
    await every(tight);
    expect(tight.reads).toBe(2 + 2 * chunks);
  });

  it('works out an order\'s places only from fragments it holds, reading nothing for them, and pages a search alike either way', async () => {
    const bundle = (await QueryBundle.open(read))!;
    const { orders } = bundle.manifest;
    // A fresh instance holds no fragment: no places, and no read for them.
    expect([bundle.heldOrderPlaces('name'), bundle.reads]).toEqual([undefined, 1]);
    const fragments = await Promise.all(orders.name.map((_, k) => bundle.orderFragment('name', k)));
    const reads = bundle.reads;
    const places = bundle.heldOrderPlaces('name')!;
    expect(bundle.reads).toBe(reads);
    expect(bundle.heldOrderPlaces('date')).toBeUndefined();
    for (const { first, clients } of fragments) clients.forEach((client, j) => expect(places[client]).toBe(first + j));
    // Kept with the fragments: asked again, the same array.
    expect(bundle.heldOrderPlaces('name')).toBe(places);
    // One answerer scans (a fresh one) and then finds pages from the places (it holds the orders by then): the same bytes.
    const targets = ['/api/v1/clients/?client_name=INC&ordering=-name&page=last', '/api/v1/clients/?client_name=ASSOC&ordering=-effective_date,name&page=3', '/api/v1/clients/?client_name=AN&ordering=name&page_size=7&page=5'];
    const fresh = await Promise.all(targets.map((target) => createAnswerer(read, { cacheResults: false }).answer('GET', target)));
    const steady = createAnswerer(read, { cacheResults: false });
    for (const target of targets) await steady.answer('GET', target);
    expect(steady.bundle!.heldOrderPlaces('name')).toBeDefined();
    expect(await Promise.all(targets.map((target) => steady.answer('GET', target)))).toEqual(fresh);
    expect(fresh.map((reply) => reply.status)).toEqual([200, 200, 200]);
  });

  it('reads a file once for one answer however many of its steps ask, and never waits on another answer\'s read', async () => {
    const started: string[] = [];
    const pending: (() => void)[] = [];
    // A reader that holds every read until told: two views asking for one chunk read it each.
    const held = async (file: string) => {
      started.push(file);
      if (file !== 'manifest.json') await new Promise<void>((resolve) => pending.push(resolve));
      return read(file);
    };
    const bundle = (await QueryBundle.open(held))!;
    // The chunks' directory read first, alone, and kept: the reads that follow are the chunk's.
    const directory = bundle.chunkDirectory();
    for (const release of pending.splice(0)) release();
    await directory;
    const [one, other] = [bundle.forAnswer(), bundle.forAnswer()];
    const reads = [one.clientAt(0), one.clientAt(0), other.clientAt(0)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.filter((file) => file.startsWith('clients/') && file !== bundle.manifest.chunks.file)).toHaveLength(2);
    for (const release of pending) release();
    const [a, b, c] = (await Promise.all(reads)).map((found) => found.chunk);
    expect([b === a, c!.ids[0] === a!.ids[0]]).toEqual([true, true]);
    // Once read, kept for every view.
    await bundle.forAnswer().clientAt(0);
    expect(bundle.reads).toBe(4);
  });
});
