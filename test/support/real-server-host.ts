import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostAdapter } from '../../src/hosts/host-adapter.ts';
import { emitHost } from './emit-host.ts';
import { differences, expectedExchange, type Probe } from './host-behaviours.ts';
import type { HostDriver, ServedSet } from './host-suite.ts';
import { sendRaw } from './http.ts';
import { freePort, hasCommand, type RealServer } from './real-servers.ts';

/**
 * A host that runs here for real (nginx, Caddy, Apache): its configuration emitted through the CLI
 * (as `npm run emit` writes it), the server started on a free port. CI installs the servers
 * (`.ci/run`); a missing one fails.
 */
export function realServerDriver(
  host: HostAdapter,
  command: string,
  start: (config: string, folder: string, port: number) => Promise<RealServer>,
): HostDriver {
  return {
    name: host.name,
    gaps: host.gaps,
    async start(dir, scratch) {
      if (!hasCommand(command)) throw new Error(`${command} is not installed: .ci/run installs it (apt-get install)`);
      const port = await freePort();
      const config = emitHost(host, dir, path.join(scratch, 'config'), `127.0.0.1:${port}`);
      const server = await start(config, scratch, port);
      return { url: server.url, stop: () => server.stop() };
    },
  };
}

/** Requests beyond the behaviour probes, where servers like to normalise on their own. */
const EDGE_PROBES: Probe[] = [
  // Dot segments are not resolved by the preview (a 404), whatever the server does with them.
  { method: 'GET', target: '/api/v1/./clients/' },
  { method: 'GET', target: '/api/v1/clients/../clients/?page=2' },
  { method: 'GET', target: '/api/v1/clients/%2e/' },
  // Encoded slashes are decoded, then runs of / read as one.
  { method: 'GET', target: '/api/v1/clients%2F?page=2' },
  { method: 'GET', target: '/api/v1/clients/%2F153637/' },
  { method: 'GET', target: '/api/v1/clients/0000153637/' },
  { method: 'GET', target: '/api/v1/registrants/0401105130/?format=%61pi' },
  // Longer ids name no record; unknown paths are 404 whatever the method.
  { method: 'GET', target: '/api/v1/clients/12345678901234567/' },
  { method: 'POST', target: '/api/v1/clients/12345678901234567/' },
  // The build's own files are not API paths: only the map says what answers.
  { method: 'GET', target: '/rewrite-map.json' },
  { method: 'GET', target: '/api/v1/clients/index.json' },
  { method: 'GET', target: '/api/v1/clients/ordering=-id/page=2.json' },
  { method: 'GET', target: '/api/v1/clients/153637/index.json' },
  { method: 'GET', target: '/errors/404-not-found.json' },
  { method: 'GET', target: '/_build/manifest.tsv' },
  { method: 'GET', target: '/serve.json' },
  { method: 'GET', target: '/' },
  // Values are percent-decoded once, never twice.
  { method: 'GET', target: '/api/v1/clients/?page=%2532' },
  { method: 'GET', target: '/api/v1/clients/?page_size=%2532' },
  { method: 'GET', target: '/api/v1/clients/?client_name=+' },
  { method: 'GET', target: '/api/v1/clients/?page=3&page=' },
  { method: 'GET', target: '/api/v1/clients/?page' },
  { method: 'OPTIONS', target: '/api/v1/clients/' },
  { method: 'HEAD', target: '/api/v1/clients' },
];

/** What every real server must also get right, beyond the conformance cases and the probes. */
export function realServerEdges(served: (set: string) => ServedSet): void {
  describe('answers like the preview beyond the probes', () => {
    it.each(EDGE_PROBES.map((probe) => [probe.method, probe.target, probe] as const))('%s %s', async (_m, _t, probe) => {
      const { url, map, dir } = served('lda-real');
      const actual = await sendRaw(url, probe.method, probe.target);
      expect(differences('headers', probe, expectedExchange(map, dir, probe), actual)).toEqual([]);
    });

    it('answers a 301 with an empty JSON body, as the preview does', async () => {
      const actual = await sendRaw(served('lda-real').url, 'GET', '/api/v1/clients?ordering=-id&page=2');
      expect(actual.status).toBe(301);
      expect(actual.body.length).toBe(0);
      expect(actual.headers['content-type']).toBe('application/json');
    });
  });

  describe('known differences, for a reason of the server', () => {
    it('a malformed percent-escape in the path is a 400 from the server itself, before any rule (the preview: 404)', async () => {
      const actual = await sendRaw(served('lda-real').url, 'GET', '/api/v1/clients/%zz/');
      expect(actual.status).toBe(400);
    });
  });
}
