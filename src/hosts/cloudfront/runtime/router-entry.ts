import { routeRequest } from './function.ts';

/**
 * The entry of the CloudFront Function's router: `routeRequest` (./function.ts, with the router it
 * imports) as the global `LDA_ROUTE` that handler.ts calls. hosts/program-bundler.ts bundles it into an
 * IIFE, so that the minifier may shorten every name inside, and declares the global in front of it.
 * The name is one of its own, so as not to replace anything of the runtime's.
 */
declare let LDA_ROUTE: typeof routeRequest;
LDA_ROUTE = routeRequest;
