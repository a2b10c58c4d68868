import { readFileSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { EdgeRuntime } from 'edge-runtime';
import serveHandler from 'serve-handler';
import { serveRuntime } from './edge-runtime-front.ts';
import type { RunningHost } from './host-suite.ts';

/**
 * An emitted Vercel project (`npm run emit -- vercel-edge`) run as Vercel runs one, on loopback:
 *
 * - its `middleware.js` in Vercel's edge runtime (the `edge-runtime` package, handed every request
 *   by edge-runtime-front.ts), called as Vercel calls Routing Middleware: its default export with the
 *   request, for the paths its `config.matcher` matches;
 * - every other path, and whatever the middleware lets through, from `public/` by a static file server
 *   (serve-handler, the core of Vercel's `serve`), as Vercel serves a project's output folder.
 *
 * The middleware's own reads of `/bundle/...` come back to the runtime's server, as on Vercel they go
 * to the deployment, and reach the static files only because the matcher leaves those paths alone.
 */
export interface VercelProject extends RunningHost {
  runtime: EdgeRuntime;
  /** The matcher as Vercel compiles it. */
  matcher: RegExp;
}

/** The global the middleware module's exports are evaluated into. */
const MODULE_GLOBAL = 'LDA_MIDDLEWARE_MODULE';

export async function startVercelProject(project: string): Promise<VercelProject> {
  const files = await listen(createServer((request, response) => void serveHandler(request, response, { public: path.join(project, 'public'), directoryListing: false }, wholeFileReads() as unknown as Parameters<typeof serveHandler>[3])));
  // The edge runtime evaluates scripts: the ES module's exports go to a global, as Vercel's own build bundles the file first.
  const middleware = transformSync(readFileSync(path.join(project, 'middleware.js'), 'utf8'), { format: 'iife', globalName: MODULE_GLOBAL }).code;
  const runtime = new EdgeRuntime({ initialCode: middleware });
  const matcher = matcherRegExp(runtime.evaluate<{ matcher?: string | string[] } | undefined>(`${MODULE_GLOBAL}.config`)?.matcher);
  runtime.evaluate(routing(matcher, files.url));
  const server = await serveRuntime(runtime);
  return {
    url: server.url,
    runtime,
    matcher,
    stop: async () => {
      await server.close();
      await files.close();
    },
  };
}

/**
 * Vercel compiles each matcher with path-to-regexp 6 and its default options (vercel/vercel,
 * packages/node/src/utils.ts, `getRegExpFromMatchers`) and matches its routes without regard to case.
 * Of path-to-regexp's syntax this knows the one form the emitted config uses, `/(<regular expression>)`,
 * which path-to-regexp 6 compiles to `^(?:\/(<regular expression>))[\/#\?]?$`, and refuses any other.
 * No matcher: every path.
 */
export function matcherRegExp(matchers: string | string[] | undefined): RegExp {
  if (matchers === undefined) return /^\/.*$/;
  const sources = [matchers].flat().map((matcher) => {
    const group = /^\/\((.*)\)$/.exec(matcher);
    if (group === null) throw new Error(`config.matcher ${JSON.stringify(matcher)}: this harness reads only "/(<regular expression>)"`);
    return `^(?:\\/(${group[1]}))[\\/#\\?]?$`;
  });
  return new RegExp(sources.join('|'), 'i');
}

/** Vercel's routing, in the runtime: the middleware for the paths it matches, else (or when it answers nothing) the files. */
function routing(matcher: RegExp, filesOrigin: string): string {
  return `
    const matcher = new RegExp(${JSON.stringify(matcher.source)}, ${JSON.stringify(matcher.flags)});
    const fromFiles = (request, url) => fetch(new URL(url.pathname + url.search, ${JSON.stringify(filesOrigin)}), { method: request.method });
    addEventListener('fetch', (event) => {
      const url = new URL(event.request.url);
      if (!matcher.test(url.pathname)) return event.respondWith(fromFiles(event.request, url));
      event.respondWith(
        Promise.resolve(${MODULE_GLOBAL}.default(event.request, event)).then((response) => response ?? fromFiles(event.request, url)),
      );
    });
  `;
}

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * serve-handler's file reads, each file read whole when it is found: a deploy switched under the
 * server (deploy-switch.test.ts) removes files, and serve-handler's own way (stat, headers, then a
 * stream that opens the file) lets a file removed between the stat and the open fail the stream after
 * a 200 began, an error nothing handles, the response never ended. Read at the stat, a file removed is
 * a 404, as a static host answers one that is gone; one found is served whole.
 */
function wholeFileReads() {
  const read = new Map<string, Buffer>();
  return {
    lstat: async (file: string) => {
      const stats = await lstat(file);
      if (stats.isFile()) read.set(file, await readFile(file));
      return stats;
    },
    createReadStream: (file: string, options: { start?: number; end?: number }) => {
      const bytes = read.get(file);
      if (bytes === undefined) throw new Error(`${file}: read without its stat`);
      read.delete(file);
      return Readable.from([bytes.subarray(options.start ?? 0, options.end === undefined ? undefined : options.end + 1)]);
    },
  };
}
