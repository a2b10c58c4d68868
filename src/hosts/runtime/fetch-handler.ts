import { createAnswerer } from '../../answer/answerer.ts';
import { warmUpCarried } from '../../answer/warm-up.ts';
import { BUNDLE_FOLDER } from '../../bundle/bundle-manifest.ts';
import { answerRequest, bundleFileFrom } from './edge-requests.ts';

/**
 * The Fetch-handler entry, one program for two platforms whose signature is `(request) => Response`:
 * the Netlify Edge Function (Deno, which also passes a `Context` this ignores) and Vercel's Routing
 * Middleware (edge runtime). Every request they route here is answered as the live service answers it
 * (contract section 9) by the answerer, which reads the query bundle as the deploy's own static files,
 * over HTTP from the request's origin, as SvelteKit's Netlify adapter reads its assets. Each platform's
 * `config` (the paths it runs for, leaving the bundle's files to static serving so that the reads never
 * come back here) is a literal its emitter writes in front of this program, since both platforms read it
 * from the source without running it.
 *
 * Bundled with the answerer by hosts/program-bundler.ts; never imported at run time by src/.
 */

// Any origin of the deploy serves the same files: the latest request's is as good as any, even for a
// read made for another request still in flight.
let origin = '';

// One answerer for the module instance (the isolate): it keeps the bundle's files it has read.
// The bundle is the deploy's /bundle/ (the emitted `public/bundle/`).
const answerer = createAnswerer(async (file) => bundleFileFrom(await fetch(new URL(`/${BUNDLE_FOLDER}${file}`, origin)), file));

// At startup (answer/warm-up.ts): the answerer's code run once over the warm-up bundle, so that the
// first request pays for its own work only. Not awaited at the top level: Vercel's build wraps the
// module in a script (as the edge runtime evaluates one). Its reads are of the program's own bytes, so it is over as the module's
// evaluation ends; the first request still waits for it, in case a platform has not run it by then.
const warming = warmUpCarried();

export default async function answer(request: Request): Promise<Response> {
  origin = new URL(request.url).origin;
  await warming;
  return answerRequest(answerer, request);
}
