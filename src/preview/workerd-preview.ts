import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MAX_TARGET_LENGTH, TARGET_TOO_LONG, type Reply } from '../answer/answerer.ts';
import { cloudflare } from '../hosts/cloudflare/cloudflare.ts';
import { jsonText } from '../json-text.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import { answerMalformedRequests } from './malformed-requests.ts';
import type { RunningPreview } from './preview-server.ts';
import { watchBuild, type ServedBuild } from './served-build.ts';
import { sendBody } from './static-answers.ts';

/**
 * The preview in workerd, Cloudflare's runtime (`preview --runtime workerd`): the Worker that
 * `emit cloudflare` writes for the build, run by miniflare with the settings of the wrangler.jsonc it
 * writes beside it, mapped to miniflare's options as `wrangler dev` maps them (`run_worker_first` is
 * the asset router's `invoke_user_worker_ahead_of_assets`), its assets served by Cloudflare's own
 * asset worker. So a deploy can be checked before it is made, from the same emitter.
 *
 * A new build is served as a new deploy is: a second Worker started over the new build's bundle
 * (checked first against its hashes), requests sent to it once it is ready, the first one stopped
 * when the requests it had are answered. The preview's own front (node:http, as the Node preview's)
 * hands each request target on as sent; it answers what Cloudflare's front answers before a Worker
 * runs (a target too long, raw bytes percent-encoded) as the Node preview does.
 *
 * miniflare is an optional peer dependency (a development one in a checkout): it brings workerd, about
 * 100 MB, which only this preview needs. An installed copy without it says the command that adds it.
 */
export interface WranglerConfig {
  main: string;
  compatibility_date: string;
  assets: { directory: string; binding: string; run_worker_first: boolean; html_handling: string; not_found_handling: string };
}

export async function startWorkerdPreview(options: { dir: string; port: number; host?: string }): Promise<RunningPreview & { folder: string }> {
  const miniflare = await importMiniflare();
  let worker: RunningWorker | undefined;
  const builds = await watchBuild(path.resolve(options.dir), {
    checked: true,
    onSwitch: async (build) => {
      const next = await startWorker(miniflare, build);
      const old = worker!;
      worker = next;
      // Stopped once the requests it has are answered, while the new one answers the rest.
      void old.retire().catch((error: unknown) => console.error(`preview: workerd: ${(error as Error).message}`));
    },
  });
  worker = await startWorker(miniflare, builds.current());
  const agent = new Agent({ keepAlive: true });
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (request, response) => {
    if ((request.url ?? '').length > MAX_TARGET_LENGTH) return sendBody(response, builds.current().map, 414, jsonText({ detail: TARGET_TOO_LONG }));
    worker!.pass(request, response, agent);
  });
  answerMalformedRequests(server, () => builds.current().map, (method, target) => worker!.answer(method, target, agent));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    server,
    get folder() {
      return worker!.folder;
    },
    close: async () => {
      builds.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await worker!.retire();
    },
  };
}

/** One Worker over one build, in workerd: requests passed to it, and stopped once those it has are answered. */
interface RunningWorker {
  /** The folder of the emitted worker.js and wrangler.jsonc. */
  folder: string;
  pass(request: IncomingMessage, response: ServerResponse, agent: Agent): void;
  answer(method: string, target: string, agent: Agent): Promise<Reply>;
  retire(): Promise<void>;
}

async function startWorker(miniflare: typeof import('miniflare'), build: ServedBuild): Promise<RunningWorker> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'lda-workerd-'));
  const mf = createMiniflare(miniflare, build, folder);
  let url: URL;
  try {
    url = await mf.ready;
  } catch (error) {
    // dispose() answers the failed start's error again: the one caught here is what to report.
    await mf.dispose().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const done = () => {
    if (--inFlight === 0) idle?.();
  };
  const send = (method: string, target: string, headers: IncomingMessage['headers'], agent: Agent) =>
    forward({ host: url.hostname, port: url.port, method, path: target, headers, agent });
  return {
    folder,
    pass(request, response, agent) {
      inFlight++;
      response.once('close', done);
      const outgoing = send(request.method ?? 'GET', request.url ?? '/', request.headers, agent);
      outgoing.once('response', (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      outgoing.once('error', (error) => failed(build.map, response, error));
      request.pipe(outgoing);
    },
    answer(method, target, agent) {
      inFlight++;
      return new Promise<Reply>((resolve, reject) => {
        const outgoing = send(method, target, { host: 'localhost' }, agent);
        outgoing.once('response', (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.once('end', () => resolve({ status: answer.statusCode ?? 502, headers: plainHeaders(answer.headers), body: Buffer.concat(chunks).toString('utf8') }));
          answer.once('error', reject);
        });
        outgoing.once('error', reject);
        outgoing.end();
      }).finally(done);
    },
    async retire() {
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await mf.dispose();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function createMiniflare(miniflare: typeof import('miniflare'), build: ServedBuild, folder: string) {
  for (const file of cloudflare.emit({ map: build.map, dir: build.folder })) writeFileSync(path.join(folder, file.name), file.text);
  // emit copies the bundle beside wrangler.jsonc; the preview links it there instead, reading the build in place.
  for (const { name, from } of cloudflare.copies!({ map: build.map, dir: build.folder })) symlinkSync(from, path.resolve(folder, name), 'dir');
  const config = readWranglerConfig(path.join(folder, 'wrangler.jsonc'));
  return new miniflare.Miniflare({
    modules: true,
    modulesRoot: folder,
    scriptPath: path.join(folder, config.main),
    compatibilityDate: config.compatibility_date,
    host: '127.0.0.1',
    port: 0,
    assets: {
      directory: realpathSync(path.resolve(folder, config.assets.directory)),
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
      assetConfig: { html_handling: config.assets.html_handling as 'none', not_found_handling: config.assets.not_found_handling as 'none' },
    },
  });
}

async function importMiniflare(): Promise<typeof import('miniflare')> {
  try {
    return await import('miniflare');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(miniflareMissing());
  }
}

/** workerd did not answer: the API's 500, logged. */
function failed(map: RewriteMap, response: ServerResponse, error: Error): void {
  console.error(`preview: workerd: ${error.message}`);
  sendBody(response, map, 500, '{"detail":"Internal error."}');
}

function plainHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string' && name !== 'content-length' && name !== 'connection' && name !== 'date') plain[name] = value;
  return plain;
}

/** wrangler.jsonc as emitted: JSON after `//` comment lines. */
export function readWranglerConfig(file: string): WranglerConfig {
  const text = readFileSync(file, 'utf8');
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join('\n'),
  ) as WranglerConfig;
}

/** What to run when miniflare is missing, with the range package.json asks for (one folder up from src/ and lib/ alike). */
export function miniflareMissing(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies?: Record<string, string> };
  const range = manifest.peerDependencies?.miniflare ?? 'latest';
  return `preview --runtime workerd runs the Worker through the npm package miniflare, which is not installed: run npm install miniflare@${range} in the folder where lda-clients-mirror is installed (with npx, install both there: npm install lda-clients-mirror-<version>.tgz miniflare@${range})`;
}
