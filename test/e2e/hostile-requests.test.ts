import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGET_TOO_LONG } from '../../src/answer/answerer.ts';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { startPreview, type RunningPreview } from '../../src/preview/preview-server.ts';
import { ESCAPING_PATHS, KNOWN_METHODS, MALFORMED_TARGETS, manyFields, methodTarget, requestBytes, seededRequests } from '../support/hostile-cases.ts';
import { exchange, type RawExchange } from '../support/raw-http.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/** A marker planted in files the preview must never serve. */
const SECRET = 'SECRET-7f3a9c';

/**
 * The preview both ways it answers: by default as the live service (contract section 9), and with
 * `--static` as a host without code. Neither ever answers a hostile request with a 5xx or a byte it
 * must not serve.
 */
describe.each(['exact', 'static'] as const)('hostile requests to the preview (%s)', (mode) => {
  const temp = tempFolder();
  let preview: RunningPreview;
  let port: number;

  beforeAll(async () => {
    const input = path.join(temp.path, 'in.ndjson');
    writeFileSync(input, ndjson([clientRecord(1), clientRecord(2), clientRecord(10)]));
    writeFileSync(path.join(temp.path, 'secret.json'), `{"${SECRET}":1}`);
    writeFileSync(path.join(temp.path, 'secret'), SECRET);
    const out = path.join(temp.path, 'site', 'out');
    await build(resolveBuildOptions({ input: [input], out, baseUrl: 'http://mirror.test' }));
    writeFileSync(path.join(temp.path, 'site', 'secret.json'), `{"${SECRET}":2}`);
    preview = await startPreview({ dir: out, port: 0, static: mode === 'static' });
    port = Number(new URL(preview.url).port);
  });
  afterAll(async () => {
    await preview?.close();
    temp.remove();
  });

  const send = (method: string, target: string | Buffer) => exchange(port, requestBytes(method, target, 'mirror.test'));

  /** What every answer must be: no 5xx, JSON with the API headers, no byte of a file it must not serve. */
  function expectSafe(answer: RawExchange, what: string) {
    expect(answer.status, what).toBeGreaterThanOrEqual(200);
    expect(answer.status, what).toBeLessThan(500);
    expect(answer.headers['content-type'], what).toBe('application/json');
    expect(answer.headers.allow, what).toBe('GET');
    const text = answer.body.toString('latin1');
    expect(text, what).not.toContain(SECRET);
    expect(text, what).not.toContain('rewrite-map@1');
    expect(text, what).not.toContain('path\tsize\tsha1');
    if (answer.status >= 400 && answer.body.length > 0) {
      expect(typeof (JSON.parse(answer.body.toString('utf8')) as { detail?: unknown }).detail, what).toBe('string');
    }
  }

  it.each(ESCAPING_PATHS)('path %s is answered safely', async (target) => {
    expectSafe(await send('GET', target), target);
  });

  it.each(MALFORMED_TARGETS)('%s is a JSON 400', async (_name, target) => {
    const answer = await send('GET', target);
    expect(answer.status).toBe(400);
    expectSafe(answer, String(target));
  });

  it('an unknown method is a 405 naming it, in JSON', async () => {
    const answer = await send('FROBNICATE', '/api/v1/clients/');
    expect(answer.status).toBe(405);
    expect(answer.body.toString()).toBe('{"detail":"Method \\"FROBNICATE\\" not allowed."}');
    expectSafe(answer, 'FROBNICATE');
  });

  it('an unknown method on a path no route takes is its 404, as Django resolves the path first (and Deno, which hands the method on)', async () => {
    const answer = await send('BREW', '/nowhere/');
    expect([answer.status, answer.body.toString()]).toEqual(mode === 'exact' ? [404, '{"detail":"Not found."}'] : [405, '{"detail":"Method \\"BREW\\" not allowed."}']);
    expectSafe(answer, 'BREW');
  });

  it('methods the parser knows, CONNECT included, are 405s', async () => {
    for (const method of KNOWN_METHODS) {
      const answer = await send(method, methodTarget(method));
      expect(answer.status, method).toBe(405);
      expectSafe(answer, method);
    }
  });

  it('a request target over 16 KiB is the documented 414 in JSON, however long (docs/answers.md)', async () => {
    for (const length of [20_000, 100_000]) {
      const answer = await send('GET', `/api/v1/clients/?ordering=${'x'.repeat(length)}`);
      expect([answer.status, answer.body.toString()], String(length)).toEqual([414, JSON.stringify({ detail: TARGET_TOO_LONG })]);
      expectSafe(answer, 'long query');
    }
  });

  it.runIf(mode === 'exact')('3,000-term orderings, 15,000-character names and raw UTF-8 bytes get the answers every runtime gives', async () => {
    const body = async (target: string | Buffer) => {
      const answer = await send('GET', target);
      expectSafe(answer, String(target));
      return [answer.status, answer.body.toString('utf8')];
    };
    expect(await body(`/api/v1/clients/?ordering=${Array(3000).fill('name').join(',')}`)).toEqual(await body('/api/v1/clients/?ordering=name'));
    expect(await body(`/api/v1/clients/?client_name=${'Q'.repeat(15_000)}`)).toEqual([200, '{"count":0,"next":null,"previous":null,"results":[]}']);
    // Django reads raw bytes of a query as UTF-8: the answer of the same bytes percent-encoded.
    expect(await body(Buffer.from('/api/v1/clients/?client_name=CLI\u00c9NT&x=\u00e9', 'utf8'))).toEqual(await body('/api/v1/clients/?client_name=CLI%C3%89NT&x=%C3%A9'));
  });

  it('thousands of parameters count with the last, or are refused as Django refuses more than 1,000', async () => {
    // 3,000 parameters within the 16 KB Node allows for a request head; longer heads are a 431 (above).
    const answer = await send('GET', manyFields(3000, 'page=2&page=1'));
    expect(answer.status).toBe(mode === 'static' ? 200 : 400);
    if (mode === 'exact') expect(JSON.parse(answer.body.toString()).detail).toMatch(/at most 1000/);
    expectSafe(answer, 'many parameters');
    const thousand = await send('GET', manyFields(999, 'page=1'));
    expect(thousand.status).toBe(200);
  });

  it('survives thousands of seeded random hostile requests and keeps answering', async () => {
    for (const { method, target, name } of seededRequests(2000)) {
      const answer = await send(method, target).catch((error: Error) => {
        throw new Error(`${name}: ${error.message}`);
      });
      expectSafe(answer, name);
    }
    const normal = await send('GET', '/api/v1/clients/?ordering=-id');
    expect(normal.status).toBe(200);
    expect(JSON.parse(normal.body.toString()).results.map((c: { id: number }) => c.id)).toEqual([10, 2, 1]);
  }, 120_000);
});
