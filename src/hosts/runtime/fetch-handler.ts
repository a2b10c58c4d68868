import { createAnswerer } from '../../answer/answerer.ts';
import { BUNDLE_FOLDER } from '../../bundle/bundle-manifest.ts';
import { answerRequest, bundleFileFrom } from './edge-requests.ts';

/**
 * The Netlify Edge Function (Deno) around the answerer: every request but the bundle's own files runs
 * it (`EDGE_FUNCTION_CONFIG`), and the answerer reads the query bundle as the site's static files, over
 * HTTP from the same site, as SvelteKit's Netlify adapter reads its assets (edge-requests.ts).
 * scripts/generate-host-programs.ts bundles this file with the answerer into
 * edge-function.generated.js. Not imported by anything at run time.
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
  const answerer = createAnswerer(async (file) => bundleFileFrom(await fetch(new URL(`/${file}`, origin)), file));
  return (request) => {
    origin = new URL(request.url).origin;
    return answerRequest(answerer, request);
  };
}
