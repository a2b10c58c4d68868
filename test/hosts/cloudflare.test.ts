import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ASSET_FILE_LIMITS, assetCountNote } from '../../src/hosts/cloudflare/cloudflare.ts';
import { readWranglerConfig, startWorkerdPreview } from '../../src/preview/workerd-preview.ts';
import { sourceProgram } from '../support/edge-programs.ts';
import { hostSuite } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';

/**
 * The Cloudflare Worker for real, in workerd, as `npm run preview -- --runtime workerd` runs it:
 * the worker.js and wrangler.jsonc that `emit cloudflare` writes, run by miniflare with the emitted
 * settings, the query bundle served as the Worker's static assets by Cloudflare's own asset worker
 * (miniflare's assets plugin), so `env.ASSETS.fetch` is the platform's. The Worker answers every
 * request as the live service (contract section 9): the shared suite sends it every exact case.
 */
const folders = new Map<string, string>();

hostSuite(
  {
    name: 'cloudflare',
    profile: 'exact',
    gaps: {},
    async start(dir) {
      const preview = await startWorkerdPreview({ dir, port: 0 });
      folders.set(dir, preview.folder);
      return { url: preview.url, stop: () => preview.close() };
    },
  },
  (served) => {
    it('runs the Worker that the sources make (runtime/worker.ts and the answerer, bundled)', () => {
      const program = sourceProgram('worker');
      expect(program).toContain('export {\n  worker_default as default\n};');
      expect(readFileSync(path.join(folders.get(served('exact-3k').dir)!, 'worker.js'), 'utf8').endsWith(program)).toBe(true);
    });

    it('uploads the query bundle alone as its assets, the Worker running first', () => {
      const { dir } = served('exact-3k');
      const config = readWranglerConfig(path.join(folders.get(dir)!, 'wrangler.jsonc'));
      expect(config.assets).toMatchObject({ directory: path.join(realpathSync(dir), 'bundle/'), binding: 'ASSETS', run_worker_first: true });
      const files = readdirSync(config.assets.directory, { recursive: true, withFileTypes: true }).filter((entry) => !entry.isDirectory()).length;
      expect(readFileSync(path.join(folders.get(dir)!, 'wrangler.jsonc'), 'utf8')).toContain(`// ${assetCountNote(files)}\n`);
      expect(assetCountNote(files)).toContain('it fits either plan');
      expect(assetCountNote(ASSET_FILE_LIMITS.paid + 1)).toMatch(/fits neither plan, so the deploy is refused/);
    });

    it('never serves an asset by its own path: only the answerer decides what answers', async () => {
      const { url } = served('exact-3k');
      for (const target of ['/manifest.json', '/bundle/manifest.json', '/clients/1.bin', '/rewrite-map.json', '/']) {
        const response = await sendRaw(url, 'GET', target);
        expect([target, response.status, response.body.toString()]).toEqual([target, 404, '{"detail":"Not found."}']);
      }
    });

    it('answers a search with the bytes the preview answers', async () => {
      const { url } = served('exact-3k');
      const response = await sendRaw(url, 'GET', '/api/v1/clients/?client_name=bank&page_size=10&page=2');
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body.toString()).next).toBe('http://mirror.test/api/v1/clients/?client_name=bank&page=3&page_size=10');
    });
  },
);
