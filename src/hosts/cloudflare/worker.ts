import { createAnswerer, type Answerer } from '../../answer/answerer.ts';
import { BUNDLE_FOLDER } from '../../bundle/bundle-manifest.ts';
import { API_HEADERS } from '../../contract.ts';
import { requestTarget } from '../request-target.ts';

/**
 * The Cloudflare Worker (ES module): every request answered as the live service answers it
 * (contract section 9) by the answerer, over the query bundle uploaded as the Worker's static assets
 * (the build's bundle/ folder, alone). The Worker runs first on every request
 * (`assets.run_worker_first`), so no asset is ever served by its own path; it reads the bundle's files
 * through the `ASSETS` binding. scripts/generate-host-programs.ts bundles this file with the answerer
 * into worker.generated.js; cloudflare.ts emits it. Not imported by anything at run time.
 */

/** The static assets binding: a fetcher that answers GETs from the uploaded folder. */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

export interface WorkerEnv {
  ASSETS: AssetsBinding;
}

export function cloudflareWorker(): { fetch(request: Request, env: WorkerEnv): Promise<Response> } {
  // One answerer per isolate: the bundle's files it has read stay for the isolate's next requests.
  let answerer: Answerer | undefined;
  return {
    async fetch(request, env) {
      answerer ??= createAnswerer((file) => readAsset(env.ASSETS, file));
      try {
        const reply = await answerer.answer(request.method, requestTarget(request.url));
        return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: reply.headers });
      } catch (error) {
        console.error(`${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
        return new Response('{"detail":"Internal error."}', { status: 500, headers: API_HEADERS });
      }
    },
  };
}

/** A file of the bundle (`bundle/...`), from the assets uploaded from the bundle folder; undefined when there is none. */
async function readAsset(assets: AssetsBinding, file: string): Promise<Uint8Array | undefined> {
  if (!file.startsWith(BUNDLE_FOLDER)) return undefined;
  const response = await assets.fetch(new Request(`https://assets.invalid/${file.slice(BUNDLE_FOLDER.length)}`));
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) throw new Error(`the assets binding answered ${response.status} for ${file}`);
  return new Uint8Array(await response.arrayBuffer());
}
