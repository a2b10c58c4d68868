import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Miniflare } from 'miniflare';
import { expect, it } from 'vitest';
import { cloudflareWorkerProgram } from '../../scripts/generate-host-programs.ts';
import { ASSET_FILE_LIMITS, assetCountNote, cloudflare, WORKER_PROGRAM } from '../../src/hosts/cloudflare/cloudflare.ts';
import { emitHost } from '../support/emit-host.ts';
import { hostSuite, type RunningHost } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';

/**
 * The Cloudflare Worker for real, in workerd: miniflare runs the emitted worker.js with the
 * settings of the emitted wrangler.jsonc, mapped to miniflare's options as `wrangler dev` maps them
 * (`assets.run_worker_first` is the asset router's `invoke_user_worker_ahead_of_assets`), and serves
 * the built folder through Cloudflare's own asset worker and router worker (miniflare's assets
 * plugin), so `env.ASSETS.fetch` is the platform's. The shared suite sends every conformance case and
 * behaviour probe to it over HTTP (miniflare's own loopback server).
 *
 * It models a deploy on Workers Paid, which takes 100,000 asset files a Worker version (Workers Free:
 * 20,000): filters-3k, built with all five filters, has about 27,000. miniflare checks the count as
 * `wrangler dev` does, against a constant with no option to change it: 20,000 in miniflare 3, 100,000
 * from 4.20250902.0 (cloudflare/workers-sdk#10489). So this file needs miniflare 4, and checks the
 * Paid limit itself too, so that a set too big for any deploy fails here whatever miniflare says.
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

const count = (n: number) => n.toLocaleString('en-US');

/** Files in a built folder as wrangler uploads them: every file at any depth. */
function assetFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => !entry.isDirectory()).length;
}

/** The emitted worker.js and wrangler.jsonc in `folder`, run by miniflare. */
async function startWorker(folder: string): Promise<RunningHost> {
  const config = readWranglerConfig(path.join(folder, 'wrangler.jsonc'));
  const files = assetFiles(config.assets.directory);
  if (files > ASSET_FILE_LIMITS.paid) {
    throw new Error(`${config.assets.directory}: ${count(files)} files, more than a Worker version holds on Workers Paid (${count(ASSET_FILE_LIMITS.paid)})`);
  }
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
  try {
    const url = (await mf.ready).toString().replace(/\/$/, '');
    return { url, stop: () => mf.dispose() };
  } catch (error) {
    // dispose() answers the failed start's error again: the one caught here is what to report.
    await mf.dispose().catch(() => undefined);
    if (!/Maximum number of assets exceeded/.test(String(error))) throw error;
    throw new Error(
      `${count(files)} files: this miniflare holds fewer than Workers Paid's ${count(ASSET_FILE_LIMITS.paid)}, which this test models (miniflare 3 holds Workers Free's ${count(ASSET_FILE_LIMITS.free)}); it needs miniflare 4.20250902.0 or later`,
      { cause: error },
    );
  }
}

hostSuite(
  {
    name: cloudflare.name,
    gaps: cloudflare.gaps,
    // `npm run emit -- cloudflare` writes worker.js and wrangler.jsonc into the host's own folder.
    start: async (dir, scratch) => startWorker(emitHost(cloudflare, dir, scratch)),
  },
  (served) => {
    it('runs the router bundled from src/routing/resolve-request.ts (the generated program is up to date)', () => {
      const program = readFileSync(WORKER_PROGRAM, 'utf8');
      expect(program, 'src/hosts/cloudflare/worker.generated.js is stale: npx tsx scripts/generate-host-programs.ts').toBe(cloudflareWorkerProgram());
      const { scratch } = served('lda-real');
      expect(readFileSync(path.join(scratch, 'worker.js'), 'utf8').endsWith(program)).toBe(true);
    });

    it('points the assets at the built folder, the Worker running first', () => {
      const { scratch, dir } = served('lda-real');
      const config = readWranglerConfig(path.join(scratch, 'wrangler.jsonc'));
      expect(config.assets).toMatchObject({ directory: dir, binding: 'ASSETS', run_worker_first: true });
    });

    it('says in wrangler.jsonc how many files the deploy uploads, against both plans', () => {
      for (const [set, plan] of [
        ['lda-real', 'it fits either plan'],
        ['filters-3k', 'it needs Workers Paid'],
      ] as const) {
        const { scratch, dir } = served(set);
        const files = assetFiles(dir);
        expect(readFileSync(path.join(scratch, 'wrangler.jsonc'), 'utf8')).toContain(`// ${assetCountNote(files)}\n`);
        expect(assetCountNote(files)).toContain(plan);
      }
      expect(assetCountNote(ASSET_FILE_LIMITS.paid + 1)).toMatch(/fits neither plan, so the deploy is refused/);
    });

    it('never serves a file by its own path: only the map decides what answers', async () => {
      const { url, map } = served('lda-real');
      for (const target of ['/api/v1/clients/index.json', '/rewrite-map.json', '/api/v1/clients/153637/index.json', '/errors/404-not-found.json', '/serve.json', '/']) {
        const response = await sendRaw(url, 'GET', target);
        expect([target, response.status, response.body.toString()]).toEqual([target, 404, map.errors.notFound.body]);
      }
    });

    it("answers a file the build did not write with its route's missingFile answer (the Worker, in Node, over a bare ASSETS)", async () => {
      const { scratch, map } = served('lda-real');
      // worker.js as an ES module for Node (.mjs: the folder has no package.json saying `type: module`).
      const file = path.join(scratch, 'worker-in-node.mjs');
      copyFileSync(path.join(scratch, 'worker.js'), file);
      const worker = (await import(pathToFileURL(file).href)) as { default: { fetch(request: Request, env: object): Promise<Response> } };
      const env = { ASSETS: { fetch: async () => new Response('not here', { status: 404 }) } };
      for (const [target, answer] of [
        ['/api/v1/clients/?page=2', map.errors.invalidPage],
        ['/api/v1/clients/153637/', map.errors.notFound],
      ] as const) {
        const response = await worker.default.fetch(new Request(`http://mirror.test${target}`), env);
        expect([target, response.status, await response.text()]).toEqual([target, answer.status, answer.body]);
      }
    });
  },
);
