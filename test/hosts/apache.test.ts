import { describe, expect, it } from 'vitest';
import { apache } from '../../src/hosts/apache/apache.ts';
import { MACHINE_LIMIT } from '../../src/hosts/apache/value-machine.ts';
import { APACHE_BINARY, startApache } from '../support/apache-server.ts';
import { differences, expectedExchange } from '../support/host-behaviours.ts';
import { hostSuite } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';

/** Apache 2.4 for real: the shared suite and the edge requests, through the emitted site file. */
/**
 * Filter values beyond the behaviour probes, one for each path through the rules and the machine that
 * reads spellings (src/hosts/apache/value-machine.ts): every one must answer as the preview does.
 */
const NUMBER_SPELLINGS = [
  '%2d0.5', '-7', '.5', '5.', '.', '-', '%2B', '0x10', '1E%2B3', '1e-3', '0.0001e4', '401105130e-0', '40110513.0e1',
  '4011051300e-1', '.401105130e9', '4%2e01105130E%2b8', '40110513000000000000e-11', '%C2%A0401105130%E3%80%80', '%1C401105130%1F',
  '4_0_1_1_0_5_1_3_0', '_', '1__2', '%EF%BC%94%D9%A0%F0%9D%9F%8F105130', '%d9%a7', '-1e999999', '1e-999999', '0e999999', '1e1041000',
  '1e16', '1e15', '9999999999999999', '10000000000000000', '1234567890123456.7e1', '12345678901234567e-1', 'Infinity', '1%2B2', '1%202',
  '1e', 'e1', '%FF', '%', '7%00', '%E2%80%A8',
];
const CHOICE_SPELLINGS = [
  '%5C', 'a%22b%5Cc', '%00%01%08%09%0A%0B%0C%0D%1F%7F', '%E2%80%A8%E2%80%A9', '%F0%9F%98%80', '%C3', '%C3%28', '%E0%80%80', '%E0%A0',
  '%ED%A0%80', '%F0%9F%98', '%F4%90%80%80', '%C0%AF', '%F0%90%80x', '%', '%2', '%zz', '100%25', '%25%7Bvalue%7D', '++', 'x=y', "'",
  '%74x', 'x'.repeat(MACHINE_LIMIT + 1),
];

hostSuite(realServerDriver(apache, APACHE_BINARY, startApache), (served) => {
  realServerEdges(served);

  describe('filter spellings beyond the probes', () => {
    const targets = [
      ...NUMBER_SPELLINGS.flatMap((value) => [`?registrant_id=${value}`, `?page=last&registrant_id=${value}`, `?registrant_id=${value}&page=2`]),
      ...CHOICE_SPELLINGS.map((value) => `?client_state=${value}`),
      // As long as the machine reads: three bytes an escape.
      `?format=json&client_country=${'%22'.repeat(Math.floor(MACHINE_LIMIT / 3))}`,
    ];
    it.each(targets)('GET /api/v1/clients/%s', async (query) => {
      const { url, map, dir } = served('lda-real');
      const probe = { method: 'GET', target: `/api/v1/clients/${query}` };
      const actual = await sendRaw(url, probe.method, probe.target);
      expect(differences('filterSpellings', probe, expectedExchange(map, dir, probe), actual)).toEqual([]);
    });
  });

  describe('known differences of Apache', () => {
    it.each(['PROPFIND', 'TRACE'])('%s, a method without a 405 file: the body names it, and Apache adds an empty Allow line', async (method) => {
      // The map writes 405 bodies as files for POST, PUT, PATCH, DELETE and OPTIONS; any other method
      // gets an ErrorDocument text naming it, which Apache sends with its own Allow line (empty: no
      // methods of its own, TRACE off) beside `Allow: GET`. HTTP reads the two lines as `GET`.
      const { url, map, dir } = served('lda-real');
      const probe = { method, target: '/api/v1/clients/' };
      const actual = await sendRaw(url, probe.method, probe.target);
      expect(actual.status).toBe(405);
      expect(actual.body.toString()).toBe(expectedExchange(map, dir, probe).body.toString());
      expect(actual.headers.allow).toBe('GET, ');
    });

    it(`a value of more than ${MACHINE_LIMIT} bytes that needs the machine: 400 naming the parameter, where the preview reads it`, async () => {
      // The machine's rounds are bounded by the value's length; past the limit the filter's error answers.
      const { url, map, dir } = served('lda-real');
      const number = `/api/v1/clients/?registrant_id=${'%20'.repeat(Math.ceil(MACHINE_LIMIT / 3))}401105130`;
      expect(expectedExchange(map, dir, { method: 'GET', target: number }).status).toBe(200);
      const answer = await sendRaw(url, 'GET', number);
      expect([answer.status, answer.body.toString()]).toEqual([400, map.errors.invalidNumber.variants!.registrant_id!.body]);
      const choice = `/api/v1/clients/?client_state=${'%22'.repeat(Math.ceil(MACHINE_LIMIT / 3) + 1)}`;
      const fixed = await sendRaw(url, 'GET', choice);
      expect([fixed.status, fixed.body.toString()]).toEqual([400, map.errors.invalidChoice.variants!.client_state!.body]);
    });

    it('a malformed percent-escape is answered with the not-found JSON body (ErrorDocument), where nginx and Caddy send their own page', async () => {
      const { url, map } = served('lda-real');
      const actual = await sendRaw(url, 'GET', '/api/v1/clients/%zz/');
      expect(actual.body.toString()).toBe(map.errors.notFound.body);
      expect(actual.headers['content-type']).toBe('application/json');
    });
  });
});
