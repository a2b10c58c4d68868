import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apache } from '../src/hosts/apache.ts';
import { caddy } from '../src/hosts/caddy.ts';
import type { HostAdapter } from '../src/hosts/host-adapter.ts';
import { nginx } from '../src/hosts/nginx.ts';
import type { RewriteMap } from '../src/plan/rewrite-map.ts';
import { APACHE_BINARY, startApache } from './support/apache-server.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { emitHost } from './support/emit-host.ts';
import { differences, expectedExchange, type Probe } from './support/host-behaviours.ts';
import { behaviourSuite } from './support/host-suite.ts';
import { sendRaw } from './support/http.ts';
import { freePort, hasCommand, startCaddy, startNginx, type RealServer } from './support/real-servers.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * The hosts that run here, for real: each set is built, the host's configuration emitted through the
 * CLI (as `npm run emit` writes it), the server started on a free port, and every conformance case,
 * every behaviour probe and the requests below sent to it. CI installs the servers (`.ci/run`); a
 * missing one fails.
 */
interface Running {
  server: RealServer;
  map: RewriteMap;
  dir: string;
}

const SERVERS: {
  host: HostAdapter;
  command: string;
  start: (config: string, folder: string, port: number) => Promise<RealServer>;
  /** Differences on requests the probes do not send, pinned so that a change shows. */
  knownDifferences?: (lda: () => Running) => void;
}[] = [
  { host: nginx, command: 'nginx', start: startNginx },
  { host: caddy, command: 'caddy', start: startCaddy },
  { host: apache, command: APACHE_BINARY, start: startApache, knownDifferences: apacheDifferences },
];

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
  // The build's own files are not API paths.
  { method: 'GET', target: '/rewrite-map.json' },
  { method: 'GET', target: '/pages/none/none/1.json' },
  { method: 'GET', target: '/errors/404-not-found.json' },
  { method: 'GET', target: '/_build/manifest.tsv' },
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

describe.each(SERVERS)('$host.name, the real server', ({ host, command, start, knownDifferences }) => {
  const temp = tempFolder(`mirror-${host.name}-`);
  const running = new Map<string, Running>();

  beforeAll(async () => {
    if (!hasCommand(command)) throw new Error(`${command} is not installed: .ci/run installs it (apt-get install)`);
    // A server whose workers drop root (Apache as www-data) must be able to read the build.
    chmodSync(temp.path, 0o755);
    for (const set of CONFORMANCE_SETS) {
      const folder = path.join(temp.path, set);
      mkdirSync(folder, { recursive: true });
      const dir = path.join(folder, 'site');
      const map = await buildConformanceSet(set, dir);
      const port = await freePort();
      const config = emitHost(host, dir, path.join(folder, 'config'), `127.0.0.1:${port}`);
      running.set(set, { server: await start(config, folder, port), map, dir });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { server } of running.values()) await server.stop();
    temp.remove();
  });

  describe.each(CONFORMANCE_SETS)('conformance set %s', (set) => {
    it.each(loadCases(set).map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (_id, _m, _t, item) => {
      expect(await checkCase(running.get(set)!.server.url, set, item)).toEqual([]);
    });
  });

  behaviourSuite(host, () => {
    const { server, map, dir } = running.get('lda-real')!;
    return { map, dir, send: (probe) => sendRaw(server.url, probe.method, probe.target) };
  });

  describe('answers like the preview beyond the probes', () => {
    it.each(EDGE_PROBES.map((probe) => [probe.method, probe.target, probe] as const))('%s %s', async (_m, _t, probe) => {
      const { server, map, dir } = running.get('lda-real')!;
      const actual = await sendRaw(server.url, probe.method, probe.target);
      expect(differences('headers', probe, expectedExchange(map, dir, probe), actual)).toEqual([]);
    });

    it('answers a 301 with an empty JSON body, as the preview does', async () => {
      const actual = await sendRaw(running.get('lda-real')!.server.url, 'GET', '/api/v1/clients?ordering=-id&page=2');
      expect(actual.status).toBe(301);
      expect(actual.body.length).toBe(0);
      expect(actual.headers['content-type']).toBe('application/json');
    });
  });

  describe('known differences, for a reason of the server', () => {
    it('a malformed percent-escape in the path is a 400 from the server itself, before any rule (the preview: 404)', async () => {
      const actual = await sendRaw(running.get('lda-real')!.server.url, 'GET', '/api/v1/clients/%zz/');
      expect(actual.status).toBe(400);
    });
    knownDifferences?.(() => running.get('lda-real')!);
  });
});

function apacheDifferences(lda: () => Running): void {
  it.each(['PROPFIND', 'TRACE'])('%s, a method without a 405 file: the body names it, and Apache adds an empty Allow line', async (method) => {
    // The map writes 405 bodies as files for POST, PUT, PATCH, DELETE and OPTIONS; any other method
    // gets an ErrorDocument text naming it, which Apache sends with its own Allow line (empty: no
    // methods of its own, TRACE off) beside `Allow: GET`. HTTP reads the two lines as `GET`.
    const { server, map, dir } = lda();
    const probe = { method, target: '/api/v1/clients/' };
    const actual = await sendRaw(server.url, probe.method, probe.target);
    expect(actual.status).toBe(405);
    expect(actual.body.toString()).toBe(expectedExchange(map, dir, probe).body.toString());
    expect(actual.headers.allow).toBe('GET, ');
  });

  it('that 400 carries the not-found JSON body (ErrorDocument), where nginx and Caddy send their own page', async () => {
    const { server, map } = lda();
    const actual = await sendRaw(server.url, 'GET', '/api/v1/clients/%zz/');
    expect(actual.body.toString()).toBe(map.errors.notFound.body);
    expect(actual.headers['content-type']).toBe('application/json');
  });
}
