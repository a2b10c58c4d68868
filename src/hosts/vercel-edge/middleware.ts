import { requestTarget } from '../request-target.ts';
import { createAnswerer } from '../../answer/answerer.ts';
import { API_HEADERS } from '../../contract.ts';

/**
 * Vercel Routing Middleware (formerly Edge Middleware) around the answerer: every request the
 * middleware's matcher lets through is answered here, as the live service answers it (contract
 * section 9), from the query bundle. The bundle is the deployment's own static files under `/bundle/`
 * (the emitted project's `public/bundle/`), read over HTTP from the request's own origin; the
 * matcher leaves those paths to Vercel's static serving, so the reads never come back here.
 *
 * Web APIs only (`fetch`, `Request`, `Response`, `URL`): the edge runtime has no Node API.
 * scripts/generate-host-programs.ts bundles this file with the answerer into
 * middleware.generated.js; vercel-edge.ts emits it. Not imported by anything at run time.
 */
export type Middleware = (request: Request) => Promise<Response>;

const INTERNAL_ERROR = '{"detail":"Internal error."}';

export function vercelMiddleware(): Middleware {
  // Any origin of the deployment serves the same files: the latest request's is as good as any.
  let origin = '';
  // One answerer per isolate: it keeps the bundle files it has read for the requests that follow.
  const answerer = createAnswerer(async (file) => {
    const response = await fetch(new URL(`/${file}`, origin));
    if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
    await response.body?.cancel();
    if (response.status === 404) return undefined;
    throw new Error(`/${file}: ${response.status} from the deployment's static files`);
  });

  return async (request) => {
    origin = new URL(request.url).origin;
    const head = request.method === 'HEAD';
    try {
      const reply = await answerer.answer(request.method, requestTarget(request.url));
      return new Response(head ? null : reply.body, { status: reply.status, headers: reply.headers });
    } catch (error) {
      // A failure of the platform (a bundle file unreadable), not an answer: logged for the deployment's logs.
      console.error(`${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
      return new Response(head ? null : INTERNAL_ERROR, { status: 500, headers: API_HEADERS });
    }
  };
}
