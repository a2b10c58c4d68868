import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { folderCounts } from '../../src/hosts/netlify-edge/folder-counts.ts';
import { EDGE_FUNCTION_CONFIG, EDGE_FUNCTION_FILE, limitsNote, NETLIFY_LIMITS, netlifyEdge, PUBLISH_FOLDER } from '../../src/hosts/netlify-edge/netlify-edge.ts';
import { sourceProgram } from '../support/edge-programs.ts';
import { runCli } from '../support/cli.ts';
import { emitHost } from '../support/emit-host.ts';
import { hostSuite, type RunningHost } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { exchange } from '../support/raw-http.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The Netlify Edge Function for real, in Deno, the runtime Netlify runs edge functions on: the site
 * that `npm run emit -- netlify-edge` writes is served by test/support/netlify-edge-server.mjs, which
 * routes by the function's own `config` as Netlify does, hands the function's requests to the emitted
 * program with a Netlify-shaped context, and serves the publish folder's static files, which the
 * function reads back over HTTP. The shared suite sends every case of the exact sets to it.
 */

/** The Deno binary of the `deno` npm package (its platform package ships it: nothing is downloaded). */
const DENO: string = (createRequire(import.meta.url)('deno/install_api.cjs') as { runInstall(): string }).runInstall();
const HARNESS = fileURLToPath(new URL('../support/netlify-edge-server.mjs', import.meta.url));

/** The emitted site in `site`, served by the harness in Deno on a random port. */
function startSite(site: string): Promise<RunningHost> {
  const args = ['run', '--no-config', '--no-lock', '--no-prompt', '--cached-only', '--allow-net=127.0.0.1', `--allow-read=${site}`, HARNESS, site, PUBLISH_FOLDER, EDGE_FUNCTION_FILE];
  const child = spawn(DENO, args, { cwd: site, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0]!;
      if (stdout.includes('\n')) {
        const { url } = JSON.parse(line) as { url: string };
        resolve({
          url,
          stop: async () => {
            child.kill();
            await exited;
          },
        });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`deno exited (${code}) before listening:\n${stderr}`)));
  });
}

/** Every file under `dir`, relative to it, with `/` between folders. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

hostSuite(
  {
    name: netlifyEdge.name,
    profile: 'exact',
    gaps: netlifyEdge.gaps,
    // `npm run emit -- netlify-edge` writes the whole site into the host's own folder.
    start: async (dir, scratch) => startSite(emitHost(netlifyEdge, dir, scratch)),
  },
  (served) => {
    it('runs the Fetch handler that the sources make (runtime/fetch-handler.ts and the answerer, bundled), after its config', () => {
      const code = readFileSync(path.join(served('exact-3k').scratch, EDGE_FUNCTION_FILE), 'utf8');
      expect(code.endsWith(`\nexport const config = ${JSON.stringify(EDGE_FUNCTION_CONFIG)};\n\n${sourceProgram('fetch-handler')}`)).toBe(true);
    });

    it('publishes the query bundle alone, beside the function and netlify.toml', () => {
      const { scratch, dir } = served('exact-3k');
      const bundle = filesUnder(path.join(dir, 'bundle'));
      expect(filesUnder(scratch)).toEqual(['netlify.toml', EDGE_FUNCTION_FILE, ...bundle.map((file) => `${PUBLISH_FOLDER}/bundle/${file}`)].sort());
      for (const file of bundle) {
        expect(readFileSync(path.join(scratch, PUBLISH_FOLDER, 'bundle', file)).equals(readFileSync(path.join(dir, 'bundle', file))), file).toBe(true);
      }
      expect(readFileSync(path.join(scratch, 'netlify.toml'), 'utf8')).toContain(`[build]\n  publish = "${PUBLISH_FOLDER}"\n  edge_functions = "netlify/edge-functions"\n`);
    });

    it("says in netlify.toml where the site stands against Netlify's limits", () => {
      const { scratch, dir } = served('exact-3k');
      const code = readFileSync(path.join(scratch, EDGE_FUNCTION_FILE));
      const note = limitsNote(folderCounts(path.join(dir, 'bundle')), gzipSync(code).length);
      expect(readFileSync(path.join(scratch, 'netlify.toml'), 'utf8')).toContain(`# ${note}\n`);
      expect(note).toMatch(/^The published folder holds \d+ files, at most \d+ in one folder \(Netlify takes 54,000\); the edge function is [\d,]+ bytes gzipped \(Netlify takes 20 MB compressed\): it fits\.$/);
      expect(limitsNote({ files: 60_000, mostInOneFolder: NETLIFY_LIMITS.filesInOneFolder + 1 }, 1000)).toMatch(/does not fit, so Netlify refuses the deploy/);
      expect(limitsNote({ files: 10, mostInOneFolder: 10 }, NETLIFY_LIMITS.functionGzipBytes + 1)).toMatch(/does not fit/);
    });

    it("serves the bundle's own URLs as files, never through the function, and every other path through it", async () => {
      const { url, scratch } = served('exact-3k');
      const manifest = await sendRaw(url, 'GET', '/bundle/manifest.json');
      expect(manifest.status).toBe(200);
      expect(manifest.body.equals(readFileSync(path.join(scratch, PUBLISH_FOLDER, 'bundle/manifest.json')))).toBe(true);
      for (const target of ['/', '/netlify.toml', `/${EDGE_FUNCTION_FILE}`, '/rewrite-map.json', '/bundlex/manifest.json']) {
        const response = await sendRaw(url, 'GET', target);
        expect([target, response.status, response.body.toString(), response.headers['content-type']]).toEqual([target, 404, '{"detail":"Not found."}', 'application/json']);
      }
    });

    it('answers HEAD with the status and headers of GET and no body: on the wire, and in the Response the function returns', async () => {
      const { url, scratch } = served('exact-3k');
      const port = Number(new URL(url).port);
      // The emitted function in Node, reading the bundle over HTTP from the site Deno serves.
      const file = path.join(scratch, 'function-in-node.mjs');
      copyFileSync(path.join(scratch, EDGE_FUNCTION_FILE), file);
      const edgeFunction = (await import(pathToFileURL(file).href)) as { default: (request: Request, context: object) => Promise<Response> };
      for (const target of ['/api/v1/clients/', '/api/v1/clients/?client_name=bank&page_size=10', '/api/v1/clients/?page=999', '/api/v1/clients/?client_state=zz', '/api/v1/clients']) {
        const get = await sendRaw(url, 'GET', target);
        const head = await exchange(port, `HEAD ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        expect([target, head.status, head.body.length]).toEqual([target, get.status, 0]);
        for (const name of ['content-type', 'vary', 'allow', 'location']) expect([target, name, head.headers[name]]).toEqual([target, name, get.headers[name]]);
        const answer = await edgeFunction.default(new Request(`${url}${target}`, { method: 'HEAD' }), {});
        expect([target, answer.status, answer.body]).toEqual([target, get.status, null]);
      }
    });

    it('replaces the copy of an earlier emit whole, so that no file of an older build stays', () => {
      const { dir } = served('exact-3k');
      const temp = tempFolder('mirror-netlify-edge-again-');
      try {
        const stale = path.join(temp.path, PUBLISH_FOLDER, 'bundle', 'clients', 'stale.bin');
        mkdirSync(path.dirname(stale), { recursive: true });
        writeFileSync(stale, 'from an older build');
        const result = runCli(['emit', 'netlify-edge', '--dir', dir, '--out', temp.path]);
        expect(result.status, result.stderr).toBe(0);
        expect(filesUnder(path.join(temp.path, PUBLISH_FOLDER, 'bundle'))).toEqual(filesUnder(path.join(dir, 'bundle')));
      } finally {
        temp.remove();
      }
    });
  },
);
