import { createAnswerer } from '../../answer/answerer.ts';
import { answerRequest, bundleFileFrom } from '../runtime/edge-requests.ts';

/**
 * Vercel Routing Middleware (formerly Edge Middleware) around the answerer: every request the
 * middleware's matcher lets through is answered here, as the live service answers it (contract
 * section 9), from the query bundle. The bundle is the deployment's own static files under `/bundle/`
 * (the emitted project's `public/bundle/`), read over HTTP from the request's own origin; the
 * matcher leaves those paths to Vercel's static serving, so the reads never come back here
 * (edge-requests.ts: the request and the reads as every edge host makes them).
 *
 * Web APIs only (`fetch`, `Request`, `Response`, `URL`): the edge runtime has no Node API.
 * scripts/generate-host-programs.ts bundles this file with the answerer into
 * middleware.generated.js; vercel-edge.ts emits it. Not imported by anything at run time.
 */
export type Middleware = (request: Request) => Promise<Response>;

export function vercelMiddleware(): Middleware {
  // Any origin of the deployment serves the same files: the latest request's is as good as any.
  let origin = '';
  // One answerer per isolate: it keeps the bundle files it has read for the requests that follow.
  const answerer = createAnswerer(async (file) => bundleFileFrom(await fetch(new URL(`/${file}`, origin)), file));
  return (request) => {
    origin = new URL(request.url).origin;
    return answerRequest(answerer, request);
  };
}
