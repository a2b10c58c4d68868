import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitHost } from './support/emit-host.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { behaviourSuite } from './support/host-suite.ts';
import { sendRaw } from './support/http.ts';
import { freePort, hasCommand, startCaddy, startNginx, type RealServer } from './support/real-servers.ts';
import { tempFolder } from './support/temp-folder.ts';
import { nginx } from '../src/hosts/nginx.ts';
import { caddy } from '../src/hosts/caddy.ts';
import type { HostAdapter } from '../src/hosts/host-adapter.ts';
import type { RewriteMap } from '../src/plan/rewrite-map.ts';

/**
 * The hosts that run here, for real: each set is built, the host's configuration emitted by the
 * adapter (as `npm run emit` writes it), the server started on a free port, and every conformance
 * case and every behaviour probe sent to it. CI installs the servers (`.ci/run`); a missing one fails.
 */
const SERVERS: { host: HostAdapter; command: string; start: (config: string, folder: string, port: number) => Promise<RealServer> }[] = [
  { host: nginx, command: 'nginx', start: startNginx },
  { host: caddy, command: 'caddy', start: startCaddy },
];

describe.each(SERVERS)('$host.name, the real server', ({ host, command, start }) => {
  const temp = tempFolder(`mirror-${host.name}-`);
  const running = new Map<string, { server: RealServer; map: RewriteMap; dir: string }>();

  beforeAll(async () => {
    if (!hasCommand(command)) throw new Error(`${command} is not installed: .ci/run installs it (apt-get install ${command})`);
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
});
