/**
 * A local Netlify for an emitted `netlify-edge` site, run by Deno, the runtime of Netlify Edge
 * Functions (test/hosts/netlify-edge.test.ts starts it):
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=<site> test/support/netlify-edge-server.mjs <site> <publish folder> <function file>
 *
 * It routes as Netlify does by the function's inline `config` (URLPattern `path` and `excludedPath`):
 * a request the function's paths take goes to the emitted function, with a Netlify-shaped context;
 * any other is answered from the publish folder's static files, or 404. So the bundle's own URLs reach
 * the function only if its config lets them. It listens on a random port of 127.0.0.1 and prints
 * `{"url": ...}` on one line once it does. JavaScript, not TypeScript: the project's type check knows
 * Node, not Deno.
 */
const [site, publishFolder, functionFile] = Deno.args;
if (functionFile === undefined) throw new TypeError('Expected <site> <publish folder> <function file>');

const publish = `${site}/${publishFolder}`;
const edgeFunction = await import(new URL(`file://${site}/${functionFile}`).href);
const patterns = (paths) => [paths ?? []].flat().map((pathname) => new URLPattern({ pathname }));
const runsOn = patterns(edgeFunction.config.path);
const excluded = patterns(edgeFunction.config.excludedPath);

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ hostname, port }) => console.log(JSON.stringify({ url: `http://${hostname}:${port}` })),
  },
  async (request, info) => {
    const { pathname } = new URL(request.url);
    const taken = runsOn.some((pattern) => pattern.test({ pathname })) && !excluded.some((pattern) => pattern.test({ pathname }));
    if (!taken) return staticFile(request, pathname);
    return edgeFunction.default(request, netlifyContext(request, info));
  },
);

/**
 * The parts of Netlify's Context (its Edge Functions API page) that describe the request, and
 * `next()`, which here fails the request: the function must answer every request itself.
 */
function netlifyContext(request, info) {
  return {
    ip: info.remoteAddr.hostname,
    requestId: crypto.randomUUID(),
    site: { id: 'local', name: 'lda-mirror', url: new URL(request.url).origin },
    deploy: { id: 'local', context: 'dev', published: false },
    next: () => Promise.reject(new Error('the function passed a request on to the site (context.next)')),
  };
}

/** The publish folder's file at `pathname`, as Netlify serves a site's static files (GET and HEAD). */
async function staticFile(request, pathname) {
  const notFound = () => new Response('Not Found', { status: 404 });
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return notFound();
  }
  if (decoded.split('/').some((segment) => segment === '..')) return notFound();
  try {
    const body = await Deno.readFile(`${publish}${decoded}`);
    return new Response(request.method === 'HEAD' ? null : body, { headers: { 'Content-Type': 'application/octet-stream' } });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory) return notFound();
    throw error;
  }
}
