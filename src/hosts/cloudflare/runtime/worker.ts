import { createAnswerer, type Answerer } from '../../../answer/answerer.ts';
import { warmUpCarried } from '../../../answer/warm-up.ts';
import { answerRequest, bundleFileFrom } from '../../runtime/edge-requests.ts';

/**
 * The Cloudflare Worker (ES module, `export default { fetch }`): every request answered as the live
 * service answers it (contract section 9) by the answerer, over the query bundle uploaded as the
 * Worker's static assets (the build's bundle/ folder, alone). The Worker runs first on every request
 * (`assets.run_worker_first`), so no asset is ever served by its own path; it reads the bundle's files
 * through the `ASSETS` binding. Bundled with the answerer by hosts/program-bundler.ts; cloudflare.ts
 * emits it.
 */

/** The static assets binding: a fetcher that answers GETs from the uploaded folder. */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

export interface WorkerEnv {
  ASSETS: AssetsBinding;
}

// One answerer per isolate: the bundle's files it has read stay for the isolate's next requests.
let answerer: Answerer | undefined;

// At startup, before the first request (answer/warm-up.ts): the answerer's code run once, so that a
// fresh isolate's first answer pays for its own work only. Awaited here, in the global scope, which
// Workers limit apart from a request's CPU time (1 s), and which allows no timer: the warm-up sets none.
await warmUpCarried();

export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    answerer ??= createAnswerer((file) => readAsset(env.ASSETS, file));
    return answerRequest(answerer, request);
  },
};

/** A file of the bundle, from the assets uploaded from the bundle folder; undefined when there is none. */
async function readAsset(assets: AssetsBinding, file: string): Promise<Uint8Array | undefined> {
  return bundleFileFrom(await assets.fetch(new Request(`https://assets.invalid/${file}`)), file);
}
