import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberRange } from '../../src/hosts/vercel/patterns.ts';
import { vercel } from '../../src/hosts/vercel/vercel.ts';
import type { Step } from '../../src/plan/rewrite-map.ts';
import { emitHost } from '../support/emit-host.ts';
import { serveExchanges } from '../support/exchange-server.ts';
import { differences, expectedExchange } from '../support/host-behaviours.ts';
import { hostSuite } from '../support/host-suite.ts';
import { loadVercelSite, vercelAnswer, type SourceRoute, type VercelSite } from '../support/vercel-rules.ts';

/**
 * Vercel cannot run here, so each built set is copied (the sets are shared by every test file),
 * `vercel.json` is emitted into the copy through `npm run emit` (as a user deploys it with the site),
 * checked against the schema's rules, and evaluated the way Vercel documents its routing
 * (test/support/vercel-rules.ts) behind a loopback server, which the shared suite sends every
 * conformance case and behaviour probe to. Its known failures follow from the adapter's gaps.
 */

/** The deployed copy and its vercel.json, by the suite's scratch folder of each set. */
const sites = new Map<string, VercelSite>();

hostSuite(
  {
    name: 'vercel',
    gaps: vercel.gaps,
    async start(dir, scratch) {
      const deployed = path.join(scratch, 'site');
      cpSync(dir, deployed, { recursive: true, dereference: true });
      // One-file host: --out names the file, here in the built folder, which Vercel deploys.
      emitHost(vercel, deployed, deployed);
      const site = loadVercelSite(deployed);
      sites.set(scratch, site);
      const server = await serveExchanges(async (probe) => vercelAnswer(site, probe));
      return { url: server.url, stop: () => server.stop() };
    },
    // Every case but the other methods (gaps.methods) and the filtered ones (filters: the next issue),
    // as before the redesign (700 of 708, when the filtered cases still expected a 400).
    passesAtLeast: { 'lda-real': 303, 'synthetic-1k': 393 },
  },
  (served) => {
    const site = (set: string) => sites.get(served(set).scratch)!;

    describe('vercel: vercel.json as Vercel reads it', () => {
      it('writes a vercel.json within the schema, whatever the number of pages', () => {
        for (const set of ['lda-real', 'synthetic-1k']) {
          const { dir, config } = site(set);
          expect(JSON.parse(readFileSync(path.join(dir, 'vercel.json'), 'utf8'))).toEqual({ $schema: 'https://openapi.vercel.sh/vercel.json', ...config });
          // The route count depends on formats and orderings only: page numbers are one regular expression.
          expect(config.routes.length).toBeLessThan(100);
        }
      });

      it('reads page numbers with a regular expression of exactly the numbers in range', () => {
        for (const [first, last] of [[1, 1], [1, 3], [1, 24], [1, 40], [7, 1234], [1, 4123], [0, 105], [95, 10_000]] as const) {
          const pattern = new RegExp(`^(?:${numberRange(first, last)})$`);
          for (let n = 0; n <= last + 20; n++) expect(pattern.test(String(n)), `${n} in ${first}..${last}`).toBe(n >= first && n <= last);
          expect(pattern.test(`0${first}`)).toBe(false);
        }
      });

      it('matches paths case-sensitively, every slash standing for a run of them, ids without their leading zeros', () => {
        const routes = site('lda-real').config.routes.filter((route): route is SourceRoute => 'src' in route);
        const matcher = (route: SourceRoute) => new RegExp(route.src, route.caseSensitive ? '' : 'i');
        const list = matcher(routes.find((route) => route.dest === '/api/v1/clients/index.json')!);
        expect(['/api/v1/clients/', '//api//v1/clients///'].map((p) => list.test(p))).toEqual([true, true]);
        expect(['/api/v1/clients', '/api/v1/clientsx/', '/API/v1/clients/'].map((p) => list.test(p))).toEqual([false, false, false]);
        const record = matcher(routes.find((route) => route.dest === '/api/v1/clients/$id/index.json')!);
        expect(record.exec('/api/v1/clients/000153637//')?.groups).toEqual({ id: '153637' });
        expect(record.test(`/api/v1/clients/${'9'.repeat(17)}/`)).toBe(false);
      });

      it("routes before the files: Vercel serves a folder's index.json as the folder, whatever the query", () => {
        const { dir } = site('lda-real');
        const filesOnly: VercelSite = { dir, config: { routes: [{ handle: 'filesystem' }] } };
        const answer = vercelAnswer(filesOnly, { method: 'GET', target: '/api/v1/clients/?page=2' });
        expect(answer.body.equals(readFileSync(path.join(dir, 'api/v1/clients/index.json')))).toBe(true);
      });

      it("answers a file the build did not write with the route's missing-file answer", () => {
        const { map, scratch } = served('lda-real');
        const copy = path.join(scratch, 'missing-files');
        // The deployed copy, vercel.json included, less two files the map names.
        cpSync(site('lda-real').dir, copy, { recursive: true });
        rmSync(path.join(copy, 'api/v1/clients/ordering=-id/page=2.json'));
        rmSync(path.join(copy, 'api/v1/clients/153637/format=api.json'));
        const withoutFiles = loadVercelSite(copy);
        for (const target of ['/api/v1/clients/?ordering=-id&page=2', '/api/v1/clients/153637/?format=api']) {
          const probe = { method: 'GET', target };
          const expected = expectedExchange(map, copy, probe);
          expect(expected.status).toBe(404);
          expect(differences('formats', probe, expected, vercelAnswer(withoutFiles, probe))).toEqual([]);
        }
      });

      it('takes parameter names, values and limits from the map, not from itself', () => {
        const { map, dir } = served('lda-real');
        const routes = map.routes.map((route) => ({
          ...route,
          steps: route.steps.map((step) => (step.step === 'choice' && step.param === 'ordering' ? { ...step, param: 'sort', choices: { ...step.choices, name: 'ordering=name/' } } : step)),
        }));
        const config = JSON.parse(vercel.emit({ map: { ...map, routes, paths: { ...map.paths, idDigits: 9 } }, dir })[0]!.text) as { routes: SourceRoute[] };
        const keys = config.routes.flatMap((route) => [...(route.has ?? []), ...(route.missing ?? [])].map((item) => item.key));
        expect(keys).toContain('sort');
        expect(keys).not.toContain('ordering');
        expect(config.routes.map((route) => route.dest)).toContain('/api/v1/clients/ordering=name/index.json');
        expect(config.routes.find((route) => route.dest === '/api/v1/clients/$id/index.json')?.src).toContain('[0-9]{0,8}');
      });

      it('refuses a step kind it cannot translate', () => {
        const { map, dir } = served('lda-real');
        const routes = map.routes.map((route, index) => (index === 0 ? { ...route, steps: [...route.steps, { step: 'sort' } as unknown as Step] } : route));
        expect(() => vercel.emit({ map: { ...map, routes }, dir })).toThrow(/step of kind "sort"/);
      });
    });
  },
);
