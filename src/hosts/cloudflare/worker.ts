import type { RewriteMap } from '../../plan/rewrite-map.ts';
import { resolveRequest } from '../../routing/resolve-request.ts';

/**
 * The Cloudflare Worker (ES module) around the router: every request runs it first
 * (`assets.run_worker_first`), `resolveRequest` (the preview's own code) says what answers, and the
 * file comes from Workers Static Assets through the `ASSETS` binding. Every answer carries the map's
 * headers. scripts/generate-host-programs.ts bundles this file with the router into
 * worker.generated.js; cloudflare.ts puts the map in front of it. Not imported by anything at run time.
 */

/** The static assets binding: a fetcher that answers GETs from the uploaded folder. */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

export interface WorkerEnv {
  ASSETS: AssetsBinding;
}

export function cloudflareWorker(map: RewriteMap): { fetch(request: Request, env: WorkerEnv): Promise<Response> } {
  return {
    async fetch(request, env) {
      const head = request.method === 'HEAD';
      const answer = resolveRequest(map, request.method, requestTarget(request.url));
      if (answer.kind === 'redirect') return new Response(null, { status: answer.status, headers: { ...map.headers, Location: answer.location } });
      if (answer.kind === 'error') return new Response(head ? null : answer.body, { status: answer.status, headers: map.headers });

      // A fresh GET for the file alone: no conditional or range headers, so the answer is the whole file.
      const asset = await env.ASSETS.fetch(new Request(new URL(`/${answer.file}`, request.url)));
      if (asset.status !== 200) {
        await asset.body?.cancel();
        // A file the map names but the build did not write (an unknown record id): the route's own answer for it.
        if (asset.status === 404) return new Response(head ? null : answer.missing.body, { status: answer.missing.status, headers: map.headers });
        return new Response(head ? null : '{"detail":"Internal error."}', { status: 500, headers: map.headers });
      }
      if (head) await asset.body?.cancel();
      return new Response(head ? null : asset.body, { status: 200, headers: map.headers });
    },
  };
}

/** The request target (path and query) exactly as it reached the Worker, from the absolute URL. */
function requestTarget(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? '/' : url.slice(pathStart);
}
