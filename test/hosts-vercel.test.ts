import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberRange, vercel } from '../src/hosts/vercel.ts';
import type { RewriteMap } from '../src/plan/rewrite-map.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { emitHost } from './support/emit-host.ts';
import { serveExchanges } from './support/exchange-server.ts';
import { behaviourSuite } from './support/host-suite.ts';
import { sendRaw } from './support/http.ts';
import type { RealServer } from './support/real-servers.ts';
import { tempFolder } from './support/temp-folder.ts';
import { compileSource, loadVercelSite, vercelAnswer, type VercelSite } from './support/vercel-rules.ts';

/**
 * Vercel cannot run here, so each set is built, `vercel.json` is emitted into the built folder through
 * `npm run emit` (as a user deploys it), checked against the schema's rules, and evaluated the way
 * Vercel documents its routing (test/support/vercel-rules.ts) behind a loopback server: every
 * conformance case and every behaviour probe is sent to that.
 */

const span = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

/** Cases Vercel cannot pass, by set, with the platform reason (the adapter's gaps say the same). */
const KNOWN_FAILURES: Record<string, { reason: string; ids: number[] }[]> = {
  'lda-real': [{ reason: 'other methods: vercel.json cannot route by method; Vercel answers them on its files itself (gaps.methods)', ids: span(306, 309) }],
  'synthetic-1k': [{ reason: 'other methods: vercel.json cannot route by method; Vercel answers them on its files itself (gaps.methods)', ids: span(396, 399) }],
};

function knownFailure(set: string, id: number): string | undefined {
  return KNOWN_FAILURES[set]?.find((entry) => entry.ids.includes(id))?.reason;
}

describe('vercel: vercel.json, evaluated as Vercel documents it', () => {
  const temp = tempFolder('mirror-vercel-');
  const sites = new Map<string, { map: RewriteMap; dir: string; site: VercelSite; server: RealServer }>();

  beforeAll(async () => {
    for (const set of CONFORMANCE_SETS) {
      const dir = path.join(temp.path, set);
      const map = await buildConformanceSet(set, dir);
      // One-file host: --out names the file, here in the built folder, which Vercel deploys.
      emitHost(vercel, dir, dir);
      const site = loadVercelSite(dir);
      sites.set(set, { map, dir, site, server: await serveExchanges(async (probe) => vercelAnswer(site, probe)) });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { server } of sites.values()) await server.stop();
    temp.remove();
  });

  it('writes a vercel.json within the schema, whatever the number of pages', () => {
    for (const { dir, site } of sites.values()) {
      expect(JSON.parse(readFileSync(path.join(dir, 'vercel.json'), 'utf8'))).toEqual({ $schema: 'https://openapi.vercel.sh/vercel.json', ...site.config });
      // The rule count depends on formats and orderings only: page numbers are one regular expression.
      expect(site.config.rewrites.length).toBeLessThan(100);
    }
  });

  it('reads page numbers with a regular expression of exactly the numbers in range', () => {
    for (const [first, last] of [[1, 1], [1, 3], [1, 24], [1, 40], [7, 1234], [1, 4123], [0, 105], [95, 10_000]] as const) {
      const pattern = new RegExp(`^(?:${numberRange(first, last)})$`);
      for (let n = 0; n <= last + 20; n++) expect(pattern.test(String(n)), `${n} in ${first}..${last}`).toBe(n >= first && n <= last);
      expect(pattern.test(`0${first}`)).toBe(false);
    }
  });

  it('compiles sources as path-to-regexp does, every slash standing for a run of them', () => {
    const { site } = sites.get('lda-real')!;
    const list = compileSource(site.config.rewrites[0]!.source).regex;
    expect(['/api/v1/clients/', '//api//v1/clients///'].map((p) => list.test(p))).toEqual([true, true]);
    expect(['/api/v1/clients', '/api/v1/clientsx/', '/API/v1/clients/'].map((p) => list.test(p))).toEqual([false, false, false]);
    const record = site.config.rewrites.find((rewrite) => rewrite.destination.startsWith('/clients/'))!;
    const match = compileSource(record.source).regex.exec('/api/v1/clients/000153637//');
    expect(match?.slice(1)).toEqual(['api/v1/clients/', '000', '153637', '//']);
    expect(compileSource(record.source).regex.test(`/api/v1/clients/${'9'.repeat(17)}/`)).toBe(false);
  });

  describe.each(CONFORMANCE_SETS)('conformance set %s', (set) => {
    it.each(loadCases(set).map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (id, _m, _t, item) => {
      const problems = await checkCase(sites.get(set)!.server.url, set, item);
      const known = knownFailure(set, id);
      if (known === undefined) expect(problems).toEqual([]);
      else expect(problems, `listed as failing on Vercel (${known}) but passes`).not.toEqual([]);
    });
  });

  behaviourSuite(vercel, () => {
    const { map, dir, server } = sites.get('lda-real')!;
    return { map, dir, send: (probe) => sendRaw(server.url, probe.method, probe.target) };
  });
});
