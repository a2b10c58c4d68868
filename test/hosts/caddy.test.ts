import { describe, expect, it } from 'vitest';
import { caddy } from '../../src/hosts/caddy/caddy.ts';
import { errorVariant, filtersStep, listRoute, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { differences, expectedExchange } from '../support/host-behaviours.ts';
import { hostSuite, type ServedSet } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';
import { startCaddy } from '../support/real-servers.ts';

/**
 * Caddy for real: the shared suite and the edge requests, through the emitted Caddyfile. With a gap
 * declared (filter spellings), cases in it would be excused: the floor keeps every case it passes.
 */
const driver = { ...realServerDriver(caddy, 'caddy', startCaddy), passesAtLeast: { 'lda-real': 309, 'synthetic-1k': 399, 'filters-3k': 657 } };
hostSuite(driver, (served) => {
  realServerEdges(served);
  filterSpellings(served);
});

/**
 * Spellings of a filter's value beyond those every rule-based host must read (the `filterSpellings`
 * column, a declared gap for Caddy): the ones its rules read answer as the preview does; the others
 * get the filter's 400 with its fixed body, which names the parameter.
 */
function filterSpellings(served: (set: string) => ServedSet): void {
  const list = '/api/v1/clients/';
  describe('filter spellings its rules read, as the preview answers them', () => {
    it.each([
      // White space (Python's, `+` as a space) and `_` around a number, `_` inside it.
      '?registrant_id=%20401105130%09',
      '?registrant_id=+401105130+',
      '?registrant_id=%E3%80%80401105130%C2%A0&ordering=-id',
      '?registrant_id=401_105_130',
      '?registrant_id=_401__105130_.7_5',
      '?registrant_id=%2B_401105130',
      '?registrant_id=-_0.5',
      '?registrant_id=%34%30%31%31%30%35%31%33%30&format=json',
      '?registrant_id=401105130&page=%6C%61st',
      // Not numbers: the 400.
      '?registrant_id=_',
      '?registrant_id=%20',
      '?registrant_id=4%200',
      '?registrant_id=-',
      '?registrant_id=.',
      // Longer than any id: the empty list, its page 2 not found.
      '?registrant_id=12345678901234567',
      '?registrant_id=12345678901234567&page=2',
      // Invalid choices echoed: decoded by Caddy, given once, nothing to escape.
      '?client_state=T%C3%A9xas',
      '?client_country=U+S',
      '?client_country=Caf%C3%A9+%3C%3E%26%2C',
      '?client_country=X&client_country=us',
      '?client_country=%55%53&page=last&ordering=-name',
    ])('%s', async (query) => {
      const { url, map, dir } = served('lda-real');
      const probe = { method: 'GET', target: `${list}${query}` };
      expect(differences('filterSpellings', probe, expectedExchange(map, dir, probe), await sendRaw(url, probe.method, probe.target))).toEqual([]);
    });
  });

  describe("filter spellings beyond its rules: the filter's 400 with its fixed body (the declared gap)", () => {
    it.each([
      ['registrant_id', '?registrant_id=4.01105130e8', 200],
      ['registrant_id', '?registrant_id=1e999999', 200],
      ['registrant_id', '?registrant_id=%D9%A7', 200],
      ['client_state', '?client_state=t%22x', 400],
      ['client_state', '?client_state=a%5Cb', 400],
      ['client_state', '?client_state=%E2%80%A8', 400],
      ['client_state', '?client_state=a%09b', 400],
      // Repeated with a last value Caddy cannot echo as it is; a pair Go's query parser skips.
      ['client_country', '?client_country=A&client_country=B+C', 400],
      ['client_country', '?client_country=a;b', 400],
      ['client_country', '?client_country=%FF', 400],
    ] as const)('%s: %s', async (param, query, previewStatus) => {
      const { url, map, dir } = served('lda-real');
      const probe = { method: 'GET', target: `${list}${query}` };
      const preview = expectedExchange(map, dir, probe);
      const actual = await sendRaw(url, probe.method, probe.target);
      expect(preview.status).toBe(previewStatus);
      expect(actual.status).toBe(400);
      expect(actual.body.toString()).toBe(fixedBody(map, param));
      expect(actual.body.equals(preview.body)).toBe(false);
    });
  });
}

/** The body a host that cannot fill in the template answers for this filter's invalid value. */
function fixedBody(map: RewriteMap, param: string): string {
  const filter = filtersStep(listRoute(map))!.served.find((served) => served.param === param)!;
  const answer = map.errors[filter.error];
  // A template that does not name the value is filled in with the parameter's name.
  return answer.template !== undefined && !answer.template.includes('{value}') ? answer.template.replace('{name}', param) : errorVariant(answer, param).body;
}
