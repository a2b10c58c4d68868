import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { expect, it } from 'vitest';
import { serve, serveJson } from '../../src/hosts/serve/serve.ts';
import { STATIC_SETS } from '../support/conformance.ts';
import { emitHost } from '../support/emit-host.ts';
import { hostSuite, type RunningHost } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';

/**
 * `npx serve` on a built folder, for real: the real serve-handler answers on a random port with the
 * options serve itself passes it (the folder's serve.json keys, `public` the folder, `etag` on:
 * serve's utilities/config.ts). The build writes serve.json and 404.html into every built folder, so
 * this is `npx serve <built folder>` with no configuration of one's own; `npm run emit -- serve`
 * writes the same two files (into the host's own folder here: the built sets are shared, read-only).
 * serve-handler never sees the query string, so most cases fail: the shared suite excuses those in
 * the gaps serve declares and holds serve to the rest.
 */

/** serve validates serve.json against @zeit/schemas deployment/config-static.js and refuses it otherwise. */
function schemaProblems(config: Record<string, unknown>): string[] {
  const allowed = ['public', 'cleanUrls', 'rewrites', 'redirects', 'headers', 'directoryListing', 'unlisted', 'trailingSlash', 'renderSingle'];
  const problems = Object.keys(config)
    .filter((key) => !allowed.includes(key))
    .map((key) => `unknown key ${key}`);
  for (const rule of (config.headers ?? []) as { source: string; headers: { key: string; value: string }[] }[]) {
    if (rule.source.length < 1 || rule.source.length > 100) problems.push(`header source ${rule.source}`);
    for (const { key, value } of rule.headers) {
      if (key.length < 1 || key.length > 32 || typeof value !== 'string' || value.length < 1 || value.length > 2048) problems.push(`header ${key}`);
    }
  }
  return problems;
}

/** serve-handler on `dir` with its serve.json's options, as serve passes them (`public` the folder, `etag` on). */
async function startServe(dir: string): Promise<RunningHost> {
  const options = { ...(JSON.parse(readFileSync(path.join(dir, 'serve.json'), 'utf8')) as object), public: dir, etag: true };
  const http = createServer((request, response) => void serveHandler(request, response, options));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    stop: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/** Every record path of a built folder (`/api/v1/clients/<id>/`, `/api/v1/registrants/<id>/`), from its folders. */
function recordPaths(dir: string): string[] {
  return ['clients', 'registrants'].flatMap((kind) =>
    readdirSync(path.join(dir, 'api/v1', kind), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^[0-9]+$/.test(entry.name))
      .map((entry) => `/api/v1/${kind}/${entry.name}/`),
  );
}

hostSuite(
  {
    name: serve.name,
    gaps: serve.gaps,
    async start(dir, scratch) {
      // As a user would: `npm run emit -- serve` (its files are compared with the build's below).
      emitHost(serve, dir, scratch);
      return startServe(dir);
    },
    // What serve passes (of 309, 399 and 657 cases): a plain first page or record, nothing filtered.
    passesAtLeast: { 'lda-real': 33, 'synthetic-1k': 22, 'filters-3k': 25 },
  },
  (served) => {
    it.each(STATIC_SETS)('emits (%s) the serve.json and 404.html the build writes into the folder', (set) => {
      const { dir, scratch } = served(set);
      for (const name of serve.files) expect(readFileSync(path.join(scratch, name), 'utf8'), name).toBe(readFileSync(path.join(dir, name), 'utf8'));
    });

    it.each(STATIC_SETS)(
      'with no configuration of its own (%s), answers the first page and every record with 200 and Content-Type application/json',
      async (set) => {
        const { url, dir, map } = served(set);
        // What the build writes is serve.json for the folder's map.
        expect(readFileSync(path.join(dir, 'serve.json'), 'utf8')).toBe(serveJson(map));
        const targets = ['/api/v1/clients/', ...recordPaths(dir)];
        expect(targets.length).toBeGreaterThan(100);
        const problems: string[] = [];
        for (const target of targets) {
          const response = await sendRaw(url, 'GET', target);
          const file = path.join(dir, target, 'index.json');
          if (response.status !== 200) problems.push(`${target}: status ${response.status}`);
          else if (response.headers['content-type'] !== 'application/json') problems.push(`${target}: Content-Type ${String(response.headers['content-type'])}`);
          else if (!response.body.equals(readFileSync(file))) problems.push(`${target}: not the body of ${file}`);
        }
        expect(problems).toEqual([]);
      },
      60_000,
    );

    it('takes its rewrites from the map: a route path, its file template and idDigits change the rewrite', () => {
      const { map } = served('lda-real');
      const changed = structuredClone(map);
      changed.paths.idDigits = 9;
      changed.routes[1]!.path = '/api/v2/customers/{id}/';
      changed.routes[1]!.file = 'records/{id}/{format}';
      const config = JSON.parse(serveJson(changed)) as { rewrites: { source: string; destination: string }[] };
      expect(config.rewrites).toContainEqual({ source: '/api/v2/customers/:zeros(0{0,}):id(\\d{1,9})', destination: '/records/:id/index.json' });
      expect(() => serveJson({ ...map, routes: [{ ...map.routes[0]!, steps: [{ step: 'sort' } as never] }] })).toThrow(/step of kind "sort", which this emitter cannot translate/);
    });

    it('writes a serve.json that serve accepts, and a 404.html holding the map 404 body', () => {
      const { scratch, map } = served('lda-real');
      const config = JSON.parse(readFileSync(path.join(scratch, 'serve.json'), 'utf8')) as { rewrites: { destination: string }[] };
      expect(schemaProblems(config)).toEqual([]);
      // Every part of a file is filled in for a request without a query: the list's filter with none.
      expect(config.rewrites.map((rewrite) => rewrite.destination)).toContain('/api/v1/clients/index.json');
      expect(config.rewrites.filter((rewrite) => /[{}]/.test(rewrite.destination))).toEqual([]);
      expect(readFileSync(path.join(scratch, '404.html'), 'utf8')).toBe(map.errors.notFound.body);
    });

    it('answers an unknown record and a path outside the API with the map 404, JSON and its headers', async () => {
      const { url, map } = served('lda-real');
      for (const target of ['/api/v1/clients/1/', '/elsewhere.txt', '/api/v1/clients/12345678901234567/']) {
        const response = await sendRaw(url, 'GET', target);
        expect([target, response.status, response.body.toString()]).toEqual([target, 404, map.errors.notFound.body]);
        expect(response.headers['content-type']).toBe('application/json');
        expect(response.headers.vary).toBe('Accept');
      }
    });

    it('reads a record id with leading zeros, as the router does', async () => {
      const { url, dir } = served('lda-real');
      const response = await sendRaw(url, 'GET', '/api/v1/clients/000153637/');
      expect(response.status).toBe(200);
      expect(response.body.equals(readFileSync(path.join(dir, 'api/v1/clients/153637/index.json')))).toBe(true);
    });
  },
);
