import { describe, expect, it } from 'vitest';
import { apache } from '../../src/hosts/apache/apache.ts';
import { APACHE_BINARY, startApache } from '../support/apache-server.ts';
import { expectedExchange } from '../support/host-behaviours.ts';
import { hostSuite } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { realServerDriver, realServerEdges } from '../support/real-server-host.ts';

/** Apache 2.4 for real: the shared suite and the edge requests, through the emitted site file. */
hostSuite(realServerDriver(apache, APACHE_BINARY, startApache), (served) => {
  realServerEdges(served);

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

    it('a malformed percent-escape is answered with the not-found JSON body (ErrorDocument), where nginx and Caddy send their own page', async () => {
      const { url, map } = served('lda-real');
      const actual = await sendRaw(url, 'GET', '/api/v1/clients/%zz/');
      expect(actual.body.toString()).toBe(map.errors.notFound.body);
      expect(actual.headers['content-type']).toBe('application/json');
    });
  });
});
