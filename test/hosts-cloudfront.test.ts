import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudfrontFunctionProgram } from '../scripts/generate-host-programs.ts';
import { FORMATS } from '../src/contract.ts';
import { cloudfront, FUNCTION_SIZE_LIMIT, functionMap } from '../src/hosts/cloudfront.ts';
import { CLOUDFRONT_FUNCTION } from '../src/hosts/host-programs.generated.ts';
import { createRewriteMap, type RewriteMap } from '../src/plan/rewrite-map.ts';
import { resolveRequest, type Answer } from '../src/routing/resolve-request.ts';
import {
  loadFunction,
  readCloudFrontFiles,
  sendThroughCloudFront,
  syntaxBeyondEs5,
  viewerRequestEvent,
  type CloudFrontFiles,
} from './support/cloudfront-runtime.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { emitHost } from './support/emit-host.ts';
import { serveExchanges } from './support/exchange-server.ts';
import { BEHAVIOUR_PROBES } from './support/host-behaviours.ts';
import { behaviourSuite } from './support/host-suite.ts';
import type { RealServer } from './support/real-servers.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * The CloudFront Function as CloudFront runs it, emulated from AWS's documentation
 * (test/support/cloudfront-runtime.ts): the emitted function.js in a context holding only the
 * runtime's documented built-ins, called with CloudFront's viewer-request event for each request,
 * and S3 serving the file it picks with the emitted response headers policy and custom error
 * responses. Every conformance case goes through serveExchanges + checkCase, every behaviour probe
 * through the behaviour suite.
 */
interface Running {
  map: RewriteMap;
  dir: string;
  out: string;
  files: CloudFrontFiles;
  handler: ReturnType<typeof loadFunction>;
  server: RealServer;
}

describe('cloudfront: the function, CloudFront and S3 emulated', () => {
  const temp = tempFolder('mirror-cloudfront-');
  const running = new Map<string, Running>();

  beforeAll(async () => {
    for (const set of CONFORMANCE_SETS) {
      const dir = path.join(temp.path, set, 'site');
      const map = await buildConformanceSet(set, dir);
      const out = emitHost(cloudfront, dir, path.join(temp.path, set, 'cloudfront'));
      const files = readCloudFrontFiles(out);
      const handler = loadFunction(files.code);
      const server = await serveExchanges(async (probe) => sendThroughCloudFront(files, handler, dir, probe));
      running.set(set, { map, dir, out, files, handler, server });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { server } of running.values()) await server.stop();
    temp.remove();
  });

  describe('the function code', () => {
    it('runs the router bundled from src/routing/resolve-request.ts (the generated program is up to date)', () => {
      expect(CLOUDFRONT_FUNCTION, 'src/hosts/host-programs.generated.ts is stale: npx tsx scripts/generate-host-programs.ts').toBe(
        cloudfrontFunctionProgram(),
      );
      expect(running.get('synthetic-1k')!.files.code.endsWith(CLOUDFRONT_FUNCTION)).toBe(true);
    });

    it('stays under the 10 KB CloudFront allows, for the 1,000-record set and for a large map', () => {
      const size = Buffer.byteLength(running.get('synthetic-1k')!.files.code);
      expect(size).toBeLessThanOrEqual(FUNCTION_SIZE_LIMIT);
      const large = createRewriteMap({
        baseUrl: 'https://lobbying-disclosure-mirror.example.org:8443',
        formats: FORMATS,
        clients: 987_654_321,
        registrants: 123_456_789,
      });
      const code = cloudfront.emit({ map: large, dir: '/srv/mirror' }).find((file) => file.name === 'function.js')!.text;
      expect(Buffer.byteLength(code)).toBeLessThanOrEqual(FUNCTION_SIZE_LIMIT);
      // The map is what grows with a build: it must leave the router room.
      expect(Buffer.byteLength(code) - size).toBeLessThan(200);
    });

    it('uses only ES 5.1 syntax (the runtime documents 5.1 and a few later features)', () => {
      expect(syntaxBeyondEs5(running.get('lda-real')!.files.code)).toEqual([]);
    });

    it('finds the checks effective: later syntax and undocumented built-ins are caught', () => {
      expect(syntaxBeyondEs5('const a = (b) => `${b}`; for (const c of []) {}')).toEqual(
        expect.arrayContaining(['ArrowFunction', 'TemplateExpression', 'ForOfStatement', 'let/const']),
      );
      for (const use of ['new Map()', 'new URLSearchParams("a=1")', 'Object.hasOwn({}, "a")', 'Array.from([])', '[...[1]]']) {
        const handler = loadFunction(`function handler(event) { return ${use}; }`);
        expect(() => handler({}), use).toThrow();
      }
    });

    it('keeps to the map: the map it embeds answers every request as the whole map does', () => {
      const strip = (answer: Answer) => (answer.kind === 'error' ? { ...answer, file: '' } : answer);
      for (const set of CONFORMANCE_SETS) {
        const { map } = running.get(set)!;
        const requests = [...loadCases(set), ...Object.values(BEHAVIOUR_PROBES).flat()];
        for (const { method, target } of requests) {
          expect(strip(resolveRequest(functionMap(map), method, target)), `${method} ${target}`).toEqual(
            strip(resolveRequest(map, method, target)),
          );
        }
      }
    });

    it('reads the query as the viewer sent it, from rawQueryString() or else from querystring', () => {
      const { handler } = running.get('lda-real')!;
      for (const raw of [true, false]) {
        const event = viewerRequestEvent('GET', '/api/v1/clients/?%6Frdering=%2Did&page=1&page=%30%32', { raw });
        expect(handler(event)).toMatchObject({ uri: '/pages/none/-id/2.json', querystring: {} });
      }
    });
  });

  describe('the settings beside it', () => {
    it('lets every method CloudFront knows reach the function, which answers 405 itself', () => {
      const { files } = running.get('lda-real')!;
      expect(files.distribution.DefaultCacheBehavior.AllowedMethods.Items).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    });

    it('adds the map headers S3 does not send (Vary, Allow) through the response headers policy', () => {
      const { files, out } = running.get('lda-real')!;
      expect(files.policy.CustomHeadersConfig.Items).toEqual([
        { Header: 'Vary', Value: 'Accept', Override: true },
        { Header: 'Allow', Value: 'GET', Override: true },
      ]);
      expect(JSON.parse(readFileSync(path.join(out, 'response-headers-policy.json'), 'utf8'))).toHaveProperty('Name');
    });

    it("turns S3's 403 for a missing record into the map's 404", () => {
      const { files, handler, dir, map } = running.get('lda-real')!;
      const answer = sendThroughCloudFront(files, handler, dir, { method: 'GET', target: '/api/v1/clients/1/' });
      expect([answer.status, answer.body.toString(), answer.headers['content-type']]).toEqual([404, map.errors.notFound.body, 'application/json']);
    });
  });

  describe.each(CONFORMANCE_SETS)('conformance set %s', (set) => {
    it.each(loadCases(set).map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (_id, _m, _t, item) => {
      expect(await checkCase(running.get(set)!.server.url, set, item)).toEqual([]);
    });

    it('every case, with the query rebuilt from querystring (no rawQueryString, as in the console test tool)', async () => {
      const { files, handler, dir } = running.get(set)!;
      const server = await serveExchanges(async (probe) => sendThroughCloudFront(files, handler, dir, probe, { raw: false }));
      try {
        const problems: string[] = [];
        for (const item of loadCases(set)) problems.push(...(await checkCase(server.url, set, item)).map((p) => `case ${item.id}: ${p}`));
        expect(problems).toEqual([]);
      } finally {
        await server.stop();
      }
    });
  });

  behaviourSuite(cloudfront, () => {
    const { files, handler, map, dir } = running.get('lda-real')!;
    return { map, dir, send: async (probe) => sendThroughCloudFront(files, handler, dir, probe) };
  });
});
