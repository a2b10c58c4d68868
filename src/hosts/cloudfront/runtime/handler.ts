/**
 * The CloudFront Function's top-level `handler`, which the runtime looks up by name. It must be async
 * to read the key value store, and TypeScript's ES5 lowering of `async` would cost kilobytes, so this
 * is written in ES5 plus `async`/`await`, which runtime 2.0 documents for top-level functions ("async
 * closures are not supported"); hosts/program-bundler.ts strips its types, untouched otherwise. It asks
 * the router's glue (`LDA_ROUTE`: `routeRequest` of ./function.ts, bundled into ES5 in front of this)
 * for an answer, reads the keys the glue says it still needs one by one (the documentation advises
 * `await` over Promise combinators), and asks again.
 *
 * Its declarations are the program's globals, as CloudFront wants them: nothing here is exported but a type.
 */

/** The runtime's module, imported on function.js's first line (cloudfront.ts: `CLOUDFRONT_MODULE`). */
declare const cf: { kvs(): { get(key: string): Promise<string> } };

/** The router's glue, set by the bundle in front of this handler. */
declare const LDA_ROUTE: typeof import('./function.ts').routeRequest;

/** The key value store associated with the function. */
var LDA_STORE = cf.kvs();

async function handler(event: import('./function.ts').ViewerRequestEvent) {
  var found: import('./function.ts').Found = {};
  for (;;) {
    var round = LDA_ROUTE(event.request, found);
    if (round.need === undefined) return round.answer;
    for (var i = 0; i < round.need.length; i++) {
      var key = round.need[i]!;
      try {
        found[key] = await LDA_STORE.get(key);
      } catch (missing) {
        // get() rejects for a key the store does not have (as documented).
        found[key] = null;
      }
    }
  }
}

/** What the runtime calls (and what keeps TypeScript from calling `handler` unused). */
export type CloudFrontHandler = typeof handler;
