import { bundleFileFrom } from '../../src/hosts/runtime/edge-requests.ts';
import worker, { type AssetsBinding, type WorkerEnv } from '../../src/hosts/cloudflare/runtime/worker.ts';

/**
 * The Cloudflare Worker as deployed (src/hosts/cloudflare/runtime/worker.ts, the same answerer and glue),
 * with two things the bench needs, bundled by workerd-isolates.ts into one script for both:
 * - as `MODE` "answer": it answers, and names the bundle files it read in the answer's
 *   `x-bench-files` header (the paths it asked its assets for; a name costs nothing beside a read);
 * - as `MODE` "reads": it only reads the files a request's `x-bench-files` header names, in that
 *   order, as the Worker reads them (the whole body of each), and answers their count.
 * The same script in both, so that loading it costs the same: what one spends beyond the other is
 * the answer's work beyond its reads.
 */
interface BenchEnv extends WorkerEnv {
  MODE: 'answer' | 'reads';
}

let asked: string[] = [];

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    asked = [];
    // One binding for the isolate's life: the answerer keeps the first it is given.
    const assets: AssetsBinding = {
      fetch: (assetRequest) => {
        asked.push(new URL(assetRequest.url).pathname);
        return env.ASSETS.fetch(assetRequest);
      },
    };
    if (env.MODE === 'reads') {
      const files = JSON.parse(request.headers.get('x-bench-files') ?? '[]') as string[];
      for (const file of files) await bundleFileFrom(await assets.fetch(new Request(`https://assets.invalid${file}`)), file);
      return new Response(String(files.length));
    }
    const answer = await worker.fetch(request, { ASSETS: assets });
    const headers = new Headers(answer.headers);
    headers.set('x-bench-files', JSON.stringify(asked));
    return new Response(answer.body, { status: answer.status, headers });
  },
};
