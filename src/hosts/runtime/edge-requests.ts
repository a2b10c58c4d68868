import type { Answerer } from '../../answer/answerer.ts';
import { API_HEADERS } from '../../contract.ts';

/**
 * What every host that runs the answerer does with the Fetch API (Cloudflare's Worker, Netlify's
 * Edge Function, Vercel's Middleware): read the request target as sent, turn the answerer's reply into
 * a `Response`, and read a bundle file from a `Response` of the platform's static files. Each host's
 * own file says only how it reaches those files.
 */

/**
 * The request target (path and query) exactly as it reached an edge runtime, from the absolute URL
 * that runtimes hand over (`request.url`): the answerer reads the query string as sent, so it is cut
 * out of the URL, never rebuilt from `URL.search`.
 */
export function requestTarget(url: string): string {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart < 0 ? '/' : url.slice(pathStart);
}

/**
 * The answerer's reply to a request, with the answerer's headers; HEAD without a body. A bundle file
 * that cannot be read is a failure of the deploy, not an answer: logged for the platform's logs, and
 * a 500 with the API's error body.
 */
export async function answerRequest(answerer: Answerer, request: Request): Promise<Response> {
  const head = request.method === 'HEAD';
  try {
    const reply = await answerer.answer(request.method, requestTarget(request.url));
    return new Response(head ? null : reply.body, { status: reply.status, headers: reply.headers });
  } catch (error) {
    console.error(`lda-mirror: ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    return new Response(head ? null : '{"detail":"Internal error."}', { status: 500, headers: API_HEADERS });
  }
}

/** A bundle file from the platform's answer for it: its bytes on 200, undefined on 404, else an error naming `file`. */
export async function bundleFileFrom(response: Response, file: string): Promise<Uint8Array | undefined> {
  if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
  await response.body?.cancel();
  if (response.status === 404) return undefined;
  throw new Error(`${file}: the platform's static files answered ${response.status}`);
}
