import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_CONTROL } from '../../src/contract.ts';
import { fakeClients } from '../../scripts/lib/fake-clients.ts';
import { filterChoices } from '../../src/choices/filter-choices.ts';
import { DEFAULT_FILTERS } from '../../src/config.ts';
import { FILTER_NAMES, FORMATS, type FilterName } from '../../src/contract.ts';
import { CLOUDFRONT_MODULE, cloudfront, FUNCTION_SIZE_LIMIT } from '../../src/hosts/cloudfront/cloudfront.ts';
import { importFile, STORE_LIMITS, storeEntries } from '../../src/hosts/cloudfront/key-value-store.ts';
import { generatedNotice } from '../../src/hosts/host-adapter.ts';
import { cloudfrontFunctionPrograms } from '../../src/hosts/program-bundler.ts';
import { lastPageFor } from '../../src/plan/page-count.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { createRewriteMap, type FilterInput } from '../../src/plan/rewrite-map-builder.ts';
import {
  associatedStore,
  importStore,
  loadFunction,
  readCloudFrontFiles,
  sendThroughCloudFront,
  syntaxBeyondEs5,
  viewerRequestEvent,
  type CloudFrontFiles,
  type StoreReads,
} from '../support/cloudfront-runtime.ts';
import { STATIC_SETS, checkCase, loadCases } from '../support/conformance.ts';
import { sourceProgram } from '../support/edge-programs.ts';
import { emitHost } from '../support/emit-host.ts';
import { serveExchanges } from '../support/exchange-server.ts';
import { BEHAVIOUR_PROBES, expectedExchange, type Probe } from '../support/host-behaviours.ts';
import { hostSuite } from '../support/host-suite.ts';

/**
 * The CloudFront Function as CloudFront runs it, emulated from AWS's documentation
 * (test/support/cloudfront-runtime.ts): the emitted function.js in a context holding only the
 * runtime's documented built-ins, with the key value store imported from the emitted file, called
 * with CloudFront's viewer-request event for each request, and S3 serving the file it picks with the
 * emitted response headers policy and custom error responses, all behind a loopback server
 * (serveExchanges) to which the shared suite sends every conformance case and behaviour probe.
 */
interface Emulated {
  files: CloudFrontFiles;
  handler: ReturnType<typeof loadFunction>;
  reads: StoreReads;
}

/** What each served set's emulation runs on, by the host's folder for the set (`scratch`). */
const emulated = new Map<string, Emulated>();

/** The code of function.js without the emit notice, the one part that names the build. */
const withoutNotice = (code: string, map: RewriteMap) => code.replace(`${generatedNotice(map, '//')}\n`, '');

hostSuite(
  {
    name: cloudfront.name,
    gaps: cloudfront.gaps,
    async start(dir, scratch) {
      // `npm run emit -- cloudfront` writes function.js, the store's import file and the settings into the host's own folder.
      const files = readCloudFrontFiles(emitHost(cloudfront, dir, scratch));
      const reads = { gets: 0 };
      const handler = loadFunction(files.code, associatedStore(files), reads);
      emulated.set(scratch, { files, handler, reads });
      return serveExchanges(async (probe) => sendThroughCloudFront(files, handler, dir, probe));
    },
    passesAtLeast: { 'lda-real': 309, 'synthetic-1k': 399, 'filters-3k': 657 },
  },
  (served) => {
    /** A served set with the emulation behind it. */
    const running = (set: string) => {
      const host = served(set);
      return { ...host, ...emulated.get(host.scratch)! };
    };
    /** Every request the tests know for a set: its cases, and the behaviour probes. */
    const requests = (set: string): Probe[] => [...loadCases(set), ...Object.values(BEHAVIOUR_PROBES).flat()];

    describe('the function code', () => {
      it('is the program that the sources make (runtime/, bundled into ES5 and minified)', () => {
        const { code } = running('synthetic-1k').files;
        expect(code.startsWith(`${CLOUDFRONT_MODULE.statement}\n`)).toBe(true);
        expect(code.endsWith(sourceProgram('cloudfront-function'))).toBe(true);
        expect(cloudfrontFunctionPrograms().minified).toBe(sourceProgram('cloudfront-function'));
      });

      it('answers every request as the readable program does (minifying kept the program)', async () => {
        for (const set of STATIC_SETS) {
          const { files, handler, dir } = running(set);
          const readable = loadFunction(`${CLOUDFRONT_MODULE.statement}\n${cloudfrontFunctionPrograms().readable}`, associatedStore(files));
          for (const probe of requests(set)) {
            const [minified, original] = [await sendThroughCloudFront(files, handler, dir, probe), await sendThroughCloudFront(files, readable, dir, probe)];
            const label = `${set}: ${probe.method} ${probe.target}`;
            expect(minified.body.equals(original.body), label).toBe(true);
            expect({ ...minified, body: '' }, label).toEqual({ ...original, body: '' });
          }
        }
      }, 120_000);

      it('stays under the 10 KB CloudFront allows, the same code for every build', () => {
        const codes = STATIC_SETS.map((set) => withoutNotice(running(set).files.code, running(set).map));
        const large = createRewriteMap({
          baseUrl: 'https://lobbying-disclosure-mirror.example.org:8443',
          formats: FORMATS,
          clients: 987_654_321,
          registrants: 123_456_789,
          filters: FILTER_NAMES.map((name) => ({ name, choices: filterChoices(name), lastPages: { [filterChoices(name)?.[0] ?? '123456789']: 39_506_173 } })),
        });
        const largeCode = cloudfront.emit({ map: large, dir: '/nonexistent/mirror' }).find((file) => file.name === 'function.js')!.text;
        // The map, which grows with a build, is in the key value store: only the notice differs.
        for (const code of [...codes, withoutNotice(largeCode, large)]) expect(code).toBe(codes[0]);
        for (const set of STATIC_SETS) expect(Buffer.byteLength(running(set).files.code)).toBeLessThanOrEqual(FUNCTION_SIZE_LIMIT);
        expect(Buffer.byteLength(largeCode)).toBeLessThanOrEqual(FUNCTION_SIZE_LIMIT);
      });

      it('uses only ES 5.1 syntax, with the import and the top-level async handler runtime 2.0 documents', () => {
        expect(syntaxBeyondEs5(running('lda-real').files.code)).toEqual([]);
      });

      it('finds the checks effective: later syntax, undocumented built-ins and modules are caught', () => {
        expect(syntaxBeyondEs5('const a = (b) => `${b}`; for (const c of []) {}')).toEqual(
          expect.arrayContaining(['ArrowFunction', 'TemplateExpression', 'ForOfStatement', 'let/const']),
        );
        expect(syntaxBeyondEs5("async function handler() { var f = async function () { await 1; }; }\nimport x from 'crypto';")).toEqual(
          expect.arrayContaining(['generator or async function', 'AwaitExpression', 'ImportDeclaration']),
        );
        expect(syntaxBeyondEs5(`${CLOUDFRONT_MODULE.statement}\nasync function handler(e) { return await e; }`)).toEqual([]);
        for (const use of ['new Map()', 'new URLSearchParams("a=1")', 'Object.hasOwn({}, "a")', 'Array.from([])', '[...[1]]']) {
          const handler = loadFunction(`function handler(event) { return ${use}; }`);
          expect(() => handler({}), use).toThrow();
        }
        expect(() => loadFunction("import crypto from 'crypto';\nfunction handler() {}")).toThrow(/one module/);
        expect(() => loadFunction(`${CLOUDFRONT_MODULE.statement}\nvar s = cf.kvs();\nfunction handler() {}`)).toThrow(/no key value store/);
      });

      it('answers every request as the preview does, with the map and the filter values read from the store', async () => {
        for (const set of STATIC_SETS) {
          const { files, handler, dir, map } = running(set);
          // A method CloudFront refuses before the function runs is the declared gap `methods`.
          for (const probe of requests(set).filter(({ method }) => files.distribution.DefaultCacheBehavior.AllowedMethods.Items.includes(method))) {
            const actual = await sendThroughCloudFront(files, handler, dir, probe);
            const expected = expectedExchange(map, dir, probe);
            const label = `${set}: ${probe.method} ${probe.target}`;
            expect([actual.status, actual.body.toString(), actual.headers.location], label).toEqual([expected.status, expected.body.toString(), expected.headers.location]);
          }
        }
      }, 120_000);

      it('reads the store a few keys a request: the map, and the value of the filter in use', async () => {
        const { files, handler, dir, reads } = running('filters-3k');
        const pieces = Number(importStore(files.storeImport).get('map'));
        const count = async (target: string) => {
          const before = reads.gets;
          await sendThroughCloudFront(files, handler, dir, { method: 'GET', target });
          return reads.gets - before;
        };
        // Two lists' routes (contract sections 3 and 10) and their errors: 5,355 characters for filters-3k.
        expect(pieces).toBeLessThanOrEqual(6);
        expect(await count('/api/v1/clients/')).toBe(1 + pieces);
        expect(await count('/api/v1/clients/12/')).toBe(1 + pieces);
        expect(await count('/api/v1/clients/?client_state=CA&page=last')).toBe(2 + pieces);
        expect(await count('/api/v1/clients/?registrant_id=0007.5e0')).toBe(2 + pieces);
        // An invalid number needs no key: the router answers it.
        expect(await count('/api/v1/clients/?registrant_id=seven')).toBe(1 + pieces);
      });

      it('reads the query as the viewer sent it, from rawQueryString() or else from querystring', async () => {
        const { handler } = running('lda-real');
        for (const raw of [true, false]) {
          const event = viewerRequestEvent('GET', '/api/v1/clients/?%6Frdering=%2Did&page=1&page=%30%32', { raw });
          expect(await handler(event)).toMatchObject({ uri: '/api/v1/clients/ordering=-id/page=2.json', querystring: {} });
        }
      });
    });

    describe('the key value store', () => {
      it('holds every valid choice and every number with lists, with its last page (0: a choice no client has)', () => {
        const { files, map, dir } = running('filters-3k');
        const store = importStore(files.storeImport);
        const served = map.routes.flatMap((route) => route.steps).flatMap((step) => (step.step === 'filters' ? step.served : []));
        const withLists = (key: string) => existsSync(path.join(dir, 'api/v1/clients', key, 'index.json'));
        for (const filter of served) {
          const keys = [...store.keys()].filter((key) => key.startsWith(`${filter.param}=`));
          const values = keys.map((key) => key.slice(filter.param.length + 1, -1));
          if (filter.choices) expect(values).toEqual(filter.choices);
          for (const key of keys) {
            const value = key.slice(filter.param.length + 1, -1);
            const last = filter.lastPages[value] ?? (withLists(key) ? 1 : 0);
            expect(store.get(key), key).toBe(String(last));
            if (filter.choices === undefined) expect(withLists(key), key).toBe(true);
          }
        }
        const registrants = readdirSync(path.join(dir, 'api/v1/clients')).filter((name) => name.startsWith('registrant_id='));
        expect([...store.keys()].filter((key) => key.startsWith('registrant_id='))).toHaveLength(registrants.length);
        expect([...store.values()]).toContain('0');
      });

      it('is emulated as documented: get of a missing key rejects, a file CloudFront would refuse is refused', async () => {
        const handler = loadFunction(
          `${CLOUDFRONT_MODULE.statement}\nvar s = cf.kvs();\nasync function handler(key) { try { return await s.get(key); } catch (e) { return 'rejected'; } }`,
          importStore('{"data":[{"key":"a","value":"1"}]}'),
        );
        expect([await handler('a'), await handler('b'), await handler('x'.repeat(600))]).toEqual(['1', 'rejected', 'rejected']);
        expect(() => importStore('{"data":[{"key":"a","value":"1"},{"key":"a","value":"2"}]}')).toThrow(/duplicate/);
        expect(() => importStore(JSON.stringify({ data: [{ key: 'a', value: 'x'.repeat(1025) }] }))).toThrow(/value of 1025/);
        expect(() => importStore('{"items":[]}')).toThrow(/data/);
      });

      it(`fits CloudFront's limits for a 134,719-record build with the default filters (${DEFAULT_FILTERS})`, () => {
        const names = DEFAULT_FILTERS.split(',') as FilterName[];
        const fields: Record<string, (client: Record<string, unknown>) => unknown> = {
          registrant_id: (client) => (client.registrant as { id: number }).id,
          client_state: (client) => client.state,
          client_country: (client) => client.country,
        };
        const counts = new Map<FilterName, Map<string, number>>(names.map((name) => [name, new Map()]));
        let clients = 0;
        for (const client of fakeClients({ count: 134_719 })) {
          clients++;
          for (const name of names) {
            const value = fields[name]!(client);
            if (value === null || value === '') continue;
            const byValue = counts.get(name)!;
            byValue.set(String(value), (byValue.get(String(value)) ?? 0) + 1);
          }
        }
        const filters: FilterInput[] = names.map((name) => ({
          name,
          choices: filterChoices(name),
          lastPages: Object.fromEntries([...counts.get(name)!].filter(([, n]) => n > 25).map(([value, n]) => [value, lastPageFor(n)])),
        }));
        const map = createRewriteMap({ baseUrl: 'https://lda-mirror.example.org', formats: FORMATS, clients, registrants: counts.get('registrant_id')!.size, filters });
        const entries = storeEntries(map, (filter) => [...counts.get(filter.param as FilterName)!.keys()]);
        const bytes = Buffer.byteLength(importFile(entries));
        expect(counts.get('registrant_id')!.size).toBeGreaterThan(10_000);
        expect(bytes).toBeLessThan(STORE_LIMITS.fileBytes / 4);
      }, 60_000);
    });

    describe('the settings beside it', () => {
      it('associates one key value store with the function, on runtime 2.0', () => {
        const { files } = running('lda-real');
        expect(files.functionConfig).toEqual({
          Comment: 'lda-clients-mirror router',
          Runtime: 'cloudfront-js-2.0',
          KeyValueStoreAssociations: { Quantity: 1, Items: [{ KeyValueStoreARN: 'KEY-VALUE-STORE-ARN' }] },
        });
      });

      it('lets every method CloudFront knows reach the function, which answers 405 itself', () => {
        const { files } = running('lda-real');
        expect(files.distribution.DefaultCacheBehavior.AllowedMethods.Items).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
      });

      it('adds the map headers S3 does not send (Vary, Allow, Cache-Control) through the response headers policy', () => {
        const { files } = running('lda-real');
        expect(files.policy.CustomHeadersConfig.Items).toEqual([
          { Header: 'Vary', Value: 'Accept', Override: true },
          { Header: 'Allow', Value: 'GET', Override: true },
          { Header: 'Cache-Control', Value: DEFAULT_CACHE_CONTROL, Override: true },
        ]);
      });

      it("turns S3's 403 for a missing record into the map's 404", async () => {
        const { files, handler, dir, map } = running('lda-real');
        const answer = await sendThroughCloudFront(files, handler, dir, { method: 'GET', target: '/api/v1/clients/1/' });
        expect([answer.status, answer.body.toString(), answer.headers['content-type']]).toEqual([404, map.errors.notFound.body, 'application/json']);
      });
    });

    it.each(STATIC_SETS)('answers every case of %s alike with the query rebuilt from querystring (no rawQueryString, as in the console test tool)', async (set) => {
      const { files, handler, dir } = running(set);
      const server = await serveExchanges(async (probe) => sendThroughCloudFront(files, handler, dir, probe, { raw: false }));
      try {
        const problems: string[] = [];
        for (const item of loadCases(set)) problems.push(...(await checkCase(server.url, set, item)).map((p) => `case ${item.id}: ${p}`));
        expect(problems).toEqual([]);
      } finally {
        await server.stop();
      }
    });
  },
);
