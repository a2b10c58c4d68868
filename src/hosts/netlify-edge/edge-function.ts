import { createAnswerer } from '../../answer/answerer.ts';
import { BUNDLE_FOLDER } from '../../bundle/bundle-manifest.ts';
import { API_HEADERS } from '../../contract.ts';
import { requestTarget } from '../request-target.ts';

/**
 * The Netlify Edge Function (Deno) around the answerer: every request but the bundle's own files runs
 * it (`EDGE_FUNCTION_CONFIG`), and the answerer reads the query bundle as the site's static files, over
 * HTTP from the same site, as SvelteKit's Netlify adapter reads its assets. Every answer carries the
 * answerer's headers; HEAD has no body. scripts/generate-host-programs.ts bundles this file with the
 * answerer into edge-function.generated.js. Not imported by anything at run time.
 */

/** Netlify's `Context`: the function uses none of it, since it answers every request itself. */
export type EdgeFunction = (request: Request, context: unknown) => Promise<Response>;

/**
 * Where the function runs (Netlify's inline `config`, URLPattern paths): every path, so that a path
 * outside the API gets the answerer's 404, except the bundle's files, which the function fetches
 * from the site itself and which must not come back into it.
 */
export const EDGE_FUNCTION_CONFIG = { path: '/*', excludedPath: `/${BUNDLE_FOLDER}*` };

export function netlifyEdgeFunction(): EdgeFunction {
  // The site's origin, from the requests: whichever of its domains a request came by, it serves the
  // files of this deploy, so a read may use the origin of another request in flight.
  let origin = '';
  // One answerer for the module instance: it keeps the bundle's files it has read.
  const answerer = createAnswerer((file) => readSiteFile(new URL(`/${file}`, origin)));
  return async (request) => {
    origin = new URL(request.url).origin;
    const head = request.method === 'HEAD';
    try {
      const reply = await answerer.answer(request.method, requestTarget(request.url));
      return new Response(head ? null : reply.body, { status: reply.status, headers: reply.headers });
    } catch (error) {
      // A file of the bundle that Netlify would not serve: a failure of the deploy, not an answer.
      console.error(`lda-mirror: ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
      return new Response(head ? null : '{"detail":"Internal error."}', { status: 500, headers: API_HEADERS });
    }
  };
}

/** A static file of the site, or undefined when the site has none (404). */
async function readSiteFile(url: URL): Promise<Uint8Array | undefined> {
  const response = await fetch(url);
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`${url.pathname}: the site answered ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}
