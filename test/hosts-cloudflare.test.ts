import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudflareWorkerProgram } from '../scripts/generate-host-programs.ts';
import { cloudflare } from '../src/hosts/cloudflare.ts';
import { CLOUDFLARE_WORKER } from '../src/hosts/host-programs.generated.ts';
import type { RewriteMap } from '../src/plan/rewrite-map.ts';
import { CONFORMANCE_SETS, checkCase, loadCases } from './support/conformance.ts';
import { buildConformanceSet } from './support/conformance-build.ts';
import { emitHost } from './support/emit-host.ts';
import { behaviourSuite } from './support/host-suite.ts';
import { sendRaw } from './support/http.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * The Cloudflare Worker for real, in workerd: miniflare 3 runs the emitted worker.js with the
 * settings of the emitted wrangler.jsonc, mapped to miniflare's options as `wrangler dev` maps them
 * (`assets.run_worker_first` is the asset router's `invoke_user_worker_ahead_of_assets`), and serves
 * the built folder through Cloudflare's own asset worker and router worker (miniflare's assets
 * plugin), so `env.ASSETS.fetch` is the platform's. Every conformance case and behaviour probe goes
 * to it over HTTP.
 */
interface WranglerConfig {
  main: string;
  compatibility_date: string;
  assets: { directory: string; binding: string; run_worker_first: boolean; html_handling: string; not_found_handling: string };
}

/** wrangler.jsonc as emitted: JSON after `//` comment lines. */
function readWranglerConfig(file: string): WranglerConfig {
  const text = readFileSync(file, 'utf8');
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join('\n'),
  ) as WranglerConfig;
}

async function startWorker(folder: string): Promise<{ mf: Miniflare; url: string }> {
  const config = readWranglerConfig(path.join(folder, 'wrangler.jsonc'));
  const mf = new Miniflare({
    modules: true,
    modulesRoot: folder,
    scriptPath: path.join(folder, config.main),
    compatibilityDate: config.compatibility_date,
    host: '127.0.0.1',
    port: 0,
    assets: {
      directory: config.assets.directory,
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
      assetConfig: {
        html_handling: config.assets.html_handling as 'none',
        not_found_handling: config.assets.not_found_handling as 'none',
      },
    },
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  return { mf, url };
}

describe('cloudflare: the Worker in workerd (miniflare 3)', () => {
  const temp = tempFolder('mirror-cloudflare-');
  const running = new Map<string, { mf: Miniflare; url: string; map: RewriteMap; dir: string; out: string }>();

  beforeAll(async () => {
    for (const set of CONFORMANCE_SETS) {
      const dir = path.join(temp.path, set, 'site');
      const map = await buildConformanceSet(set, dir);
      const out = emitHost(cloudflare, dir, path.join(temp.path, set, 'cloudflare'));
      running.set(set, { ...(await startWorker(out)), map, dir, out });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { mf } of running.values()) await mf.dispose();
    temp.remove();
  });

  it('runs the router bundled from src/routing/resolve-request.ts (the generated program is up to date)', () => {
    expect(CLOUDFLARE_WORKER, 'src/hosts/host-programs.generated.ts is stale: npx tsx scripts/generate-host-programs.ts').toBe(
      cloudflareWorkerProgram(),
    );
    const { out } = running.get('lda-real')!;
    expect(readFileSync(path.join(out, 'worker.js'), 'utf8')).toContain(CLOUDFLARE_WORKER);
  });

  it('points the assets at the built folder, the Worker running first', () => {
    const { out, dir } = running.get('lda-real')!;
    const config = readWranglerConfig(path.join(out, 'wrangler.jsonc'));
    expect(config.assets).toMatchObject({ directory: dir, binding: 'ASSETS', run_worker_first: true });
  });

  it('never serves a file by its own path: only the map decides what answers', async () => {
    const { url, map } = running.get('lda-real')!;
    for (const target of ['/pages/none/none/1.json', '/rewrite-map.json', '/clients/none/153637.json', '/']) {
      const response = await sendRaw(url, 'GET', target);
      expect([target, response.status, response.body.toString()]).toEqual([target, 404, map.errors.notFound.body]);
    }
  });

  describe.each(CONFORMANCE_SETS)('conformance set %s', (set) => {
    it.each(loadCases(set).map((item) => [item.id, item.method, item.target, item] as const))('case %i: %s %s', async (_id, _m, _t, item) => {
      expect(await checkCase(running.get(set)!.url, set, item)).toEqual([]);
    });
  });

  behaviourSuite(cloudflare, () => {
    const { url, map, dir } = running.get('lda-real')!;
    return { map, dir, send: (probe) => sendRaw(url, probe.method, probe.target) };
  });
});
