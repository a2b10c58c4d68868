import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { BUNDLE_MANIFEST, type BundleManifest } from '../../src/bundle/bundle-manifest.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { apache } from '../../src/hosts/apache/apache.ts';
import { caddy } from '../../src/hosts/caddy/caddy.ts';
import { cloudfront } from '../../src/hosts/cloudfront/cloudfront.ts';
import { netlifyEdge } from '../../src/hosts/netlify-edge/netlify-edge.ts';
import { nginx } from '../../src/hosts/nginx/nginx.ts';
import { vercelEdge } from '../../src/hosts/vercel-edge/vercel-edge.ts';
import { DEFAULT_CACHE_CONTROL } from '../../src/contract.ts';
import { MAP_FILE, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { startPreview } from '../../src/preview/preview-server.ts';
import { startWorkerdPreview } from '../../src/preview/workerd-preview.ts';
import { APACHE_BINARY, startApache } from '../support/apache-server.ts';
import { associatedStore, loadFunction, readCloudFrontFiles, sendThroughCloudFront } from '../support/cloudfront-runtime.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { emitHost } from '../support/emit-host.ts';
import { serveExchanges } from '../support/exchange-server.ts';
import type { RunningHost } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { startSite } from '../support/netlify-edge-site.ts';
import { realServerDriver } from '../support/real-server-host.ts';
import { startCaddy, startNginx } from '../support/real-servers.ts';
import { tempFolder } from '../support/temp-folder.ts';
import { startVercelProject } from '../support/vercel-edge-project.ts';

/**
 * A build with `--cors '*'` served by every host that runs here: a page on another origin can read
 * the mirror (its preflight answered 204, every answer carrying Access-Control-Allow-Origin and the
 * build's Cache-Control), and where code runs, the build's ETag and a 304 for it. Without `--cors`,
 * the shared suite of each host holds `OPTIONS` to the contract's 405.
 */
const temp = tempFolder('mirror-cors-');
const site = path.join(temp.path, 'site');
const PAGE_ORIGIN = 'https://notebook.example';
const preflightHeaders = { Origin: PAGE_ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' };

interface CorsHost {
  name: string;
  /** `build`: code runs for each request, the build's ETag and 304 for it; `file`: the server's own ETag of a file, and 304; `none`. */
  etag: 'build' | 'file' | 'none';
  start(dir: string, scratch: string): Promise<RunningHost>;
}

/** The CloudFront Function in its emulated runtime, with S3 behind it, as test/hosts/cloudfront.test.ts runs it. */
async function startCloudFront(dir: string, scratch: string): Promise<RunningHost> {
  const files = readCloudFrontFiles(emitHost(cloudfront, dir, scratch));
  const handler = loadFunction(files.code, associatedStore(files));
  const server = await serveExchanges((probe) => sendThroughCloudFront(files, handler, dir, probe));
  return { url: server.url, stop: () => server.stop() };
}

/** A preview as the host suite runs a host. */
const stoppable = async (started: Promise<{ url: string; close(): Promise<void> }>): Promise<RunningHost> => {
  const preview = await started;
  return { url: preview.url, stop: () => preview.close() };
};

const HOSTS: CorsHost[] = [
  { name: 'preview', etag: 'build', start: (dir) => stoppable(startPreview({ dir, port: 0 })) },
  { name: 'preview --static', etag: 'build', start: (dir) => stoppable(startPreview({ dir, port: 0, static: true })) },
  { name: 'workerd (Cloudflare Worker)', etag: 'build', start: (dir) => stoppable(startWorkerdPreview({ dir, port: 0 })) },
  { name: 'Deno (Netlify Edge Function)', etag: 'build', start: (dir, scratch) => startSite(emitHost(netlifyEdge, dir, scratch)) },
  { name: 'edge-runtime (Vercel Middleware)', etag: 'build', start: (dir, scratch) => startVercelProject(emitHost(vercelEdge, dir, scratch)) },
  { name: 'nginx', etag: 'file', start: realServerDriver(nginx, 'nginx', startNginx).start },
  { name: 'caddy', etag: 'file', start: realServerDriver(caddy, 'caddy', startCaddy).start },
  { name: 'apache', etag: 'file', start: realServerDriver(apache, APACHE_BINARY, startApache).start },
  // The emulation serves S3's files without S3's ETag: that one is S3's own, not the function's.
  { name: 'cloudfront (function and S3, emulated)', etag: 'none', start: startCloudFront },
];

/** Headers a server adds to any answer of its own (the connection, the date, its name), beside what the build decides. */
const SERVER_HEADERS = new Set(['connection', 'keep-alive', 'date', 'server', 'content-length', 'transfer-encoding']);

let preflight: NonNullable<RewriteMap['preflight']>;

let etag: string;

beforeAll(async () => {
  await build(resolveBuildOptions({ input: [path.join(setFolder('lda-real'), 'input.ndjson')], out: site, baseUrl: CONFORMANCE_BASE_URL, cors: '*' }));
  etag = (JSON.parse(readFileSync(path.join(site, BUNDLE_MANIFEST), 'utf8')) as BundleManifest).etag!;
  preflight = (JSON.parse(readFileSync(path.join(site, MAP_FILE), 'utf8')) as RewriteMap).preflight!;
}, 120_000);
afterAll(() => temp.remove());

describe.each(HOSTS.map((host) => [host.name, host] as const))("a build with --cors '*' on %s", (name, host) => {
  let running: RunningHost;
  beforeAll(async () => {
    running = await host.start(site, path.join(temp.path, name.replace(/\W+/g, '-')));
  }, 120_000);
  afterAll(() => running?.stop());

  it('answers a preflight from another origin with 204 and what the page may do', async () => {
    for (const target of ['/api/v1/clients/?client_name=bank', '/api/v1/clients/44400/', '/api/v1/nothing/']) {
      // The static hosts serve no name search, but a preflight is answered before any route.
      const response = await sendRaw(running.url, 'OPTIONS', target, preflightHeaders);
      expect([target, response.status]).toEqual([target, 204]);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
      expect(response.headers['access-control-allow-headers']).toMatch(/\bAuthorization\b/);
      expect(response.body.length).toBe(0);
      // Exactly the preflight's headers: none of an answer's (Content-Type, Allow, Vary).
      const sent = Object.entries(response.headers).filter(([name]) => !SERVER_HEADERS.has(name));
      const expected = Object.entries(preflight.headers).map(([name, value]) => [name.toLowerCase(), value]);
      expect(Object.fromEntries(sent), target).toEqual(Object.fromEntries(expected));
    }
  });

  it('lets the page read a GET (the origin allowed, the Cache-Control of a nightly build), errors included', async () => {
    const page = await sendRaw(running.url, 'GET', '/api/v1/clients/?page=2', { Origin: PAGE_ORIGIN });
    expect(page.status).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBe('*');
    expect(page.headers['cache-control']).toBe(DEFAULT_CACHE_CONTROL);
    expect(page.body.equals(readFileSync(path.join(setFolder('lda-real'), 'bodies', '0003.json')))).toBe(true);
    const missing = await sendRaw(running.url, 'GET', '/api/v1/clients/?page=99', { Origin: PAGE_ORIGIN });
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('*');
  });

  // The emulated CloudFront sends no ETag: S3's own is not emulated (docs/hosts.md).
  it.skipIf(host.etag === 'none')(host.etag === 'build' ? "sends the build's ETag, and 304 for it" : 'sends an ETag of its own for a file, and 304 for it', async () => {
    const target = '/api/v1/clients/44400/';
    const first = await sendRaw(running.url, 'GET', target);
    expect(first.status).toBe(200);
    const given = first.headers.etag as string;
    if (host.etag === 'build') expect(given).toBe(etag);
    else expect(given).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await sendRaw(running.url, 'GET', target, { 'If-None-Match': given, Origin: PAGE_ORIGIN });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['access-control-allow-origin']).toBe('*');
    const stale = await sendRaw(running.url, 'GET', target, { 'If-None-Match': '"an-older-build"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(first.body)).toBe(true);
  });
});
