import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netlify } from '../src/hosts/netlify.ts';
import type { RewriteMap } from '../src/plan/rewrite-map.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { emitHost } from './support/emit-host.ts';
import { serveExchanges } from './support/exchange-server.ts';
import { behaviourSuite } from './support/host-suite.ts';
import { sendRaw } from './support/http.ts';
import { loadNetlifySite, matchPath, netlifyAnswer, type NetlifySite } from './support/netlify-rules.ts';
import type { RealServer } from './support/real-servers.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * Netlify cannot run here, so each set is built, `_redirects` and `_headers` are emitted into the built
 * folder through `npm run emit` (as a user publishes them), `_redirects` is read with Netlify's own
 * parser, and the rules are evaluated the way Netlify documents them (test/support/netlify-rules.ts)
 * behind a loopback server: every conformance case and every behaviour probe is sent to that.
 */

/** The one difference every case has: Netlify ignores a custom `Allow` header (see gaps.headers). */
const ALLOW_IGNORED = 'header Allow: undefined, expected "GET"';

const span = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

/** Both sets ask for five invalid pages (past the end, 0, -1, abc, 2.5) for each format and ordering. */
const INVALID_PAGE_CASES = [8, 23, 38, 53, 68, 83, 98, 113, 128, 143, 158, 173].flatMap((first) => span(first, first + 4));

/** Cases Netlify cannot pass, by set, with the platform reason (the adapter's gaps say the same). */
const KNOWN_FAILURES: Record<string, { reason: string; ids: number[] }[]> = {
  'lda-real': [
    {
      reason: "page past the end, not a number, or with leading zeros: a rewrite to a file that does not exist is Netlify's own 404 page (gaps.pages)",
      ids: [...INVALID_PAGE_CASES, 294],
    },
    { reason: "unknown record id: Netlify's own 404 page (gaps.formats)", ids: [286, 287] },
    { reason: 'repeated parameter: Netlify rules are held to the first value (gaps.repeatedParameters)', ids: [290] },
    { reason: 'repeated slashes are not read as one (gaps.missingSlash)', ids: [295] },
    { reason: 'missing final slash: Netlify matches the rule without it, no 301 (gaps.missingSlash)', ids: [303, 304] },
    { reason: 'other methods: Netlify answers them on its files itself (gaps.methods)', ids: span(306, 309) },
  ],
  'synthetic-1k': [
    {
      reason: "page past the end, not a number, or with leading zeros: a rewrite to a file that does not exist is Netlify's own 404 page (gaps.pages)",
      ids: [...INVALID_PAGE_CASES, 384],
    },
    { reason: "unknown record id: Netlify's own 404 page (gaps.formats)", ids: [376, 377] },
    { reason: 'repeated parameter: Netlify rules are held to the first value (gaps.repeatedParameters)', ids: [380] },
    { reason: 'repeated slashes are not read as one (gaps.missingSlash)', ids: [385] },
    { reason: 'missing final slash: Netlify matches the rule without it, no 301 (gaps.missingSlash)', ids: [393, 394] },
    { reason: 'other methods: Netlify answers them on its files itself (gaps.methods)', ids: span(396, 399) },
  ],
};

function knownFailure(set: string, id: number): string | undefined {
  return KNOWN_FAILURES[set]?.find((entry) => entry.ids.includes(id))?.reason;
}

describe('netlify: _redirects and _headers, evaluated as Netlify documents them', () => {
  const temp = tempFolder('mirror-netlify-');
  const sites = new Map<string, { map: RewriteMap; dir: string; site: NetlifySite; server: RealServer }>();

  beforeAll(async () => {
    for (const set of CONFORMANCE_SETS) {
      const dir = path.join(temp.path, set);
      const map = await buildConformanceSet(set, dir);
      // Multi-file host: --out is a folder, here the built folder itself, which Netlify publishes.
      emitHost(netlify, dir, dir);
      const site = await loadNetlifySite(dir);
      sites.set(set, { map, dir, site, server: await serveExchanges(async (probe) => netlifyAnswer(site, probe)) });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { server } of sites.values()) await server.stop();
    temp.remove();
  });

  it('writes rules that Netlify reads: every line parses, one rule a line, within Netlify\'s advice', () => {
    for (const { dir, site } of sites.values()) {
      const lines = readFileSync(path.join(dir, '_redirects'), 'utf8').split('\n');
      const ruleLines = lines.filter((line) => line.trim() !== '' && !line.startsWith('#'));
      expect(site.rules).toHaveLength(ruleLines.length);
      // "If you need to set up 10,000 redirects or more, we recommend using wildcards or placeholders".
      expect(site.rules.length).toBeLessThan(10_000);
      expect(lines[0]).toMatch(/^# Generated by lda-clients-mirror/);
    }
  });

  it('puts the more specific rule first wherever two rules could match the same request', () => {
    // A rule shadows every later rule on the same path whose conditions include its own.
    const { site } = sites.get('lda-real')!;
    site.rules.forEach((earlier, index) => {
      for (const later of site.rules.slice(index + 1)) {
        if (later.from !== earlier.from) continue;
        const covered = Object.entries(earlier.query).every(([name, value]) => value.startsWith(':') ? name in later.query : later.query[name] === value);
        expect(covered, `${JSON.stringify(earlier)} hides ${JSON.stringify(later)}`).toBe(false);
      }
    });
  });

  it('sends the map\'s headers on every path, Allow included (which Netlify then ignores)', () => {
    const { site, map } = sites.get('lda-real')!;
    expect(site.headerRules).toEqual([{ path: '/*', headers: Object.entries(map.headers) }]);
    expect(matchPath('/*', '/api/v1/clients/')).toBeDefined();
  });

  describe.each(CONFORMANCE_SETS)('conformance set %s', (set) => {
    it.each(loadCases(set).map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (id, _m, _t, item) => {
      const problems = await checkCase(sites.get(set)!.server.url, set, item);
      // Headers are compared on every case; Netlify never sends the map's Allow (gaps.headers).
      if (item.kind !== 'redirect') expect(problems, 'Netlify cannot send Allow: GET').toContain(ALLOW_IGNORED);
      const others = problems.filter((problem) => problem !== ALLOW_IGNORED);
      const known = knownFailure(set, id);
      if (known === undefined) expect(others).toEqual([]);
      else expect(others, `listed as failing on Netlify (${known}) but passes`).not.toEqual([]);
    });
  });

  behaviourSuite(netlify, () => {
    const { map, dir, server } = sites.get('lda-real')!;
    return { map, dir, send: (probe) => sendRaw(server.url, probe.method, probe.target) };
  });
});
