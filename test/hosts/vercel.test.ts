import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { numberRange } from '../../src/hosts/vercel/patterns.ts';
import { ROUTE_LIMIT, vercel } from '../../src/hosts/vercel/vercel.ts';
import { errorVariant, filtersStep, listRoute, type RewriteMap, type Step } from '../../src/plan/rewrite-map.ts';
import { STATIC_SETS } from '../support/conformance.ts';
import { emitHost } from '../support/emit-host.ts';
import { serveExchanges } from '../support/exchange-server.ts';
import { BEHAVIOUR_PROBES, differences, expectedExchange } from '../support/host-behaviours.ts';
import { hostSuite } from '../support/host-suite.ts';
import { loadVercelSite, vercelAnswer, type SourceRoute, type VercelConfigFile, type VercelSite } from '../support/vercel-rules.ts';

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
    // Every case but the other methods (gaps.methods) and, in filters-3k, the five invalid choices,
    // whose 400 body names the value (gaps.filters).
    passesAtLeast: { 'lda-real': 305, 'synthetic-1k': 395, 'filters-3k': 648 },
  },
  (served) => {
    const site = (set: string) => sites.get(served(set).scratch)!;

    describe('vercel: vercel.json as Vercel reads it', () => {
      it('writes a vercel.json within the schema and its limits, whatever the number of pages and values', () => {
        for (const set of STATIC_SETS) {
          const { dir, config } = site(set);
          expect(JSON.parse(readFileSync(path.join(dir, 'vercel.json'), 'utf8'))).toEqual({ $schema: 'https://openapi.vercel.sh/vercel.json', ...config });
        }
        // The count depends on formats, orderings, filters and how many last pages their values have:
        // page numbers are one regular expression, values one group per last page.
        const { map, dir } = served('filters-3k');
        const routeCount = (changed: RewriteMap) => (JSON.parse(vercel.emit({ map: changed, dir })[0]!.text) as VercelConfigFile).routes.length;
        const more = structuredClone(map);
        listRoute(more).page.last *= 10;
        for (const filter of filtersStep(listRoute(more))!.served.filter((filter) => filter.values === 'number')) {
          for (const [value, last] of Object.entries(filter.lastPages)) filter.lastPages[`${value}7`] = last;
        }
        expect(routeCount(more)).toBe(routeCount(map));
        expect(routeCount(map)).toBeLessThanOrEqual(ROUTE_LIMIT);
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
          steps: route.steps.map((step) => {
            if (step.step === 'choice' && step.param === 'ordering') return { ...step, param: 'sort', choices: { ...step.choices, name: 'ordering=name/' } };
            if (step.step !== 'filters') return step;
            return { ...step, served: step.served.map((filter) => (filter.param === 'client_state' ? { ...filter, param: 'state', folder: 'state={value}/', choices: ['TX', 'Tx'] } : filter)) };
          }),
        }));
        const config = JSON.parse(vercel.emit({ map: { ...map, routes, paths: { ...map.paths, idDigits: 9 } }, dir })[0]!.text) as { routes: SourceRoute[] };
        const keys = config.routes.flatMap((route) => [...(route.has ?? []), ...(route.missing ?? [])].map((item) => item.key));
        expect(keys).toEqual(expect.arrayContaining(['sort', 'state']));
        expect(keys).not.toContain('ordering');
        expect(keys).not.toContain('client_state');
        // Every ordering names its folder alike, so one route copies the value into the folder.
        const sorted = config.routes.find((route) => route.dest === '/api/v1/clients/ordering=$sort/index.json')!;
        expect(sorted.has?.find((item) => item.key === 'sort')?.value).toBe('^(?<sort>-id|-name|-effective_date|name)$');
        const state = config.routes.find((route) => route.dest === '/api/v1/clients/state=$v/index.json')!;
        expect(state.has?.find((item) => item.key === 'state')?.value).toBe('^(?<v>TX|Tx)$');
        expect(config.routes.find((route) => route.dest === '/api/v1/clients/$id/index.json')?.src).toContain('[0-9]{0,8}');
        expect(config.routes.find((route) => route.dest === '/api/v1/clients/registrant_id=$v/index.json')?.has?.[0]?.value).toContain('[0-9]{0,8}');
      });

      it("answers page=last of each filter's values with that value's last page, and a value no client has with the empty list", () => {
        const { map } = served('filters-3k');
        const { dir } = site('filters-3k');
        const problems: string[] = [];
        let sent = 0;
        for (const filter of filtersStep(listRoute(map))!.served) {
          // Every value with more than one page, every choice, and a number no client has.
          const values = new Set([...Object.keys(filter.lastPages), ...(filter.choices ?? ['5', '-5', '0'])]);
          for (const value of values) {
            for (const rest of ['&page=last', '&page=last&format=json&ordering=-name', '', '&page=2', '&ordering=-id&page=last&format=api']) {
              const probe = { method: 'GET', target: `/api/v1/clients/?${filter.param}=${value}${rest}` };
              problems.push(...differences('filters', probe, expectedExchange(map, dir, probe), vercelAnswer(site('filters-3k'), probe)));
              sent++;
            }
          }
        }
        expect(sent).toBeGreaterThan(3000);
        expect(problems).toEqual([]);
      });

      it('reads a number with a sign, leading zeros and a fraction as the router does, on every page', () => {
        const { map } = served('filters-3k');
        const { dir } = site('filters-3k');
        const number = filtersStep(listRoute(map))!.served.find((filter) => filter.values === 'number')!;
        const [[value, last]] = Object.entries(number.lastPages).sort((a, b) => b[1] - a[1]) as [[string, number]];
        const spellings = [value, `000${value}`, `%2B${value}`, `%2B0${value}.`, `${value}.999`, `-${value}`, `-0${value}.5`, '0', '-0', '.5', '-0.9', '00.000', '7.', '1234567890123456'];
        // White space around it, as Decimal trims it: a raw `+` is a space, and Python's spaces beyond ASCII.
        spellings.push(`%20${value}%09`, `+${value}`, `%E2%80%83-0${value}.5%E3%80%80`, '%0B0%1C');
        const problems: string[] = [];
        for (const spelling of spellings) {
          for (const page of ['', 'last', '1', '01', '2', String(last), String(last + 1), 'x']) {
            const probe = { method: 'GET', target: `/api/v1/clients/?registrant_id=${spelling}${page === '' ? '' : `&page=${page}`}&format=json` };
            problems.push(...differences('filters', probe, expectedExchange(map, dir, probe), vercelAnswer(site('filters-3k'), probe)));
          }
        }
        expect(problems).toEqual([]);
        // More digits than an id has: the empty list on the router, a 400 here (contract section 8 allows either).
        for (const spelling of ['12345678901234567', `1${'0'.repeat(40)}.5`]) {
          const answer = vercelAnswer(site('filters-3k'), { method: 'GET', target: `/api/v1/clients/?registrant_id=${spelling}` });
          expect([answer.status, answer.body.toString()]).toEqual([400, map.errors.invalidNumber.variants!.registrant_id!.body]);
        }
      });

      it('answers a spelling beyond its rules with a 400 naming the filter, never with a list', () => {
        // (The probes of the column less white space, which is read as the router reads it.)
        const { map } = served('filters-3k');
        const targets = [
          ...BEHAVIOUR_PROBES.filterSpellings.map((probe) => probe.target).filter((target) => !target.includes('%20')),
          '/api/v1/clients/?client_country=us',
          '/api/v1/clients/?client_ppb_state=%20TX',
          '/api/v1/clients/?registrant_id=173630684e0&page=last',
          '/api/v1/clients/?registrant_id=0x10',
          '/api/v1/clients/?registrant_id=- 5',
          '/api/v1/clients/?registrant_id=%E2%80%8B5',
        ];
        for (const target of targets) {
          const name = [...new URLSearchParams(target.split('?')[1])].find(([key]) => key !== 'page')![0];
          const answer = vercelAnswer(site('filters-3k'), { method: 'GET', target });
          expect([target, answer.status, answer.body.toString()]).toEqual([target, 400, errorVariant(map.errors[name === 'registrant_id' ? 'invalidNumber' : 'invalidChoice'], name).body]);
        }
      });

      it("keeps every has value within Vercel's 4,096 characters, splitting long lists of values", () => {
        const { map } = served('filters-3k');
        const many = structuredClone(map);
        const number = filtersStep(listRoute(many))!.served.find((filter) => filter.values === 'number')!;
        number.lastPages = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [String(400_000_000 + i * 7), 2 + (i % 2)]));
        const copy = path.join(served('filters-3k').scratch, 'many-values');
        mkdirSync(copy, { recursive: true });
        writeFileSync(path.join(copy, 'vercel.json'), vercel.emit({ map: many, dir: copy })[0]!.text);
        // A site of marker files: each holds its own path, so the answer names the file that Vercel chose.
        const marked = ['400000000', '400020993', '400041993', '400041986', '123'];
        for (const value of marked) {
          const last = number.lastPages[value];
          const file = `api/v1/clients/registrant_id=${value}/${last === undefined ? 'index.json' : `page=${last}.json`}`;
          mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
          writeFileSync(path.join(copy, file), file);
        }
        const withMany = loadVercelSite(copy);
        expect(withMany.config.routes.length).toBeLessThanOrEqual(ROUTE_LIMIT);
        for (const value of marked) {
          const answer = vercelAnswer(withMany, { method: 'GET', target: `/api/v1/clients/?registrant_id=0${value}&page=last` });
          expect(answer.body.toString()).toBe(`api/v1/clients/registrant_id=${value}/${number.lastPages[value] === undefined ? 'index.json' : `page=${number.lastPages[value]}.json`}`);
        }
      });

      it('stops when a build needs more routes than Vercel deploys', () => {
        const { map, dir } = served('filters-3k');
        const many = structuredClone(map);
        // Every value a last page of its own: a route for each, in every format and ordering.
        filtersStep(listRoute(many))!.served.find((filter) => filter.values === 'number')!.lastPages = Object.fromEntries(
          Array.from({ length: 600 }, (_, i) => [String(1000 + i), i + 2]),
        );
        expect(() => vercel.emit({ map: many, dir })).toThrow(/needs [0-9,]+ routes, more than the 2,048 Vercel deploys/);
      });

      it('refuses a step kind it cannot translate', () => {
        const { map, dir } = served('lda-real');
        const routes = map.routes.map((route, index) => (index === 0 ? { ...route, steps: [...route.steps, { step: 'sort' } as unknown as Step] } : route));
        expect(() => vercel.emit({ map: { ...map, routes }, dir })).toThrow(/step of kind "sort"/);
      });
    });
  },
);
