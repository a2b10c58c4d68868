import { ALLOWED_METHODS, API_HEADERS, type HttpSettings, type Preflight } from '../contract.ts';

/*
 * The headers a public mirror needs beyond the contract's (section 5), decided once at build time and
 * recorded in the rewrite map and the bundle's manifest, so that every host sends the same:
 * - `Cache-Control` on every answer, errors and redirects included: a nightly rebuild changes the
 *   answers once a day, so an hour's freshness by default keeps a CDN or browser at most an hour
 *   behind a rebuild (`--cache-control`, or `none` to send none);
 * - with `--cors <origin>` (off by default; `*` for any page), `Access-Control-Allow-Origin` on every
 *   answer, and a 204 to a preflight (`OPTIONS`) on any path, saying which methods and request
 *   headers a page may use. The origin is one fixed value, never the request's echoed, so an answer
 *   does not vary with `Origin` and needs no `Vary: Origin`. Without `--cors`, `OPTIONS` stays the
 *   contract's 405. (The default and the settings' shape are in contract.ts, where every room reads them.)
 */

/** Request headers a page may send: what scripts of the live API send (its key, conditional requests). */
const ALLOWED_REQUEST_HEADERS = 'Accept, Authorization, Cache-Control, If-Modified-Since, If-None-Match';
/** How long a browser keeps a preflight's answer: a day, its usual cap. */
const PREFLIGHT_MAX_AGE = '86400';

/** The headers of every API answer: the contract's, then Cache-Control and the CORS origin when set. */
export function answerHeaders(settings: HttpSettings): Record<string, string> {
  return {
    ...API_HEADERS,
    ...(settings.cacheControl === 'none' ? {} : { 'Cache-Control': settings.cacheControl }),
    ...(settings.cors === undefined ? {} : { 'Access-Control-Allow-Origin': settings.cors }),
  };
}

export function preflightAnswer(settings: HttpSettings): Preflight | undefined {
  if (settings.cors === undefined) return undefined;
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': settings.cors,
      'Access-Control-Allow-Methods': [...ALLOWED_METHODS, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      ...(settings.cacheControl === 'none' ? {} : { 'Cache-Control': settings.cacheControl }),
    },
  };
}
