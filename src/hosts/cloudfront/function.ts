import type { RewriteMap } from '../../plan/rewrite-map.ts';
import { resolveRequest } from '../../routing/resolve-request.ts';

/**
 * The CloudFront Function (viewer request, runtime cloudfront-js-2.0) around the router: it puts the
 * request back together as the viewer sent it, asks `resolveRequest` (the preview's own code), and
 * either points `request.uri` at the file for the S3 origin or answers the error or redirect itself.
 * scripts/generate-host-programs.ts bundles this file with the router into ES5 (what the runtime
 * documents), function.generated.js; cloudfront.ts puts the map in front of it. Not imported by
 * anything at run time.
 *
 * A viewer-request function runs before S3 is asked, so it cannot answer a file answer's `missing`
 * itself: the distribution's custom error responses do, with the page cloudfront.ts picks from the
 * routes' `missingFile` (distribution-config.json).
 */

/** The parts of CloudFront's viewer-request event read here. */
export interface ViewerRequestEvent {
  request: ViewerRequest;
}

export interface ViewerRequest {
  method: string;
  /** The path as the viewer sent it, still percent-encoded, without the query. */
  uri: string;
  /** One field a parameter name, as the viewer sent it (names and values still percent-encoded). */
  querystring: Record<string, QueryField>;
  /** The query as sent, without `?`; `undefined` when the request had no `?`. Newer than `querystring`. */
  rawQueryString?: () => string | undefined;
}

export interface QueryField {
  value: string;
  /** Present when the parameter is repeated: every value, in order. */
  multiValue?: { value: string }[];
}

/** A response the function answers with itself; header names in lower case, as CloudFront wants. */
export interface FunctionResponse {
  statusCode: number;
  headers: Record<string, { value: string }>;
  body?: { encoding: 'text'; data: string };
}

export function cloudfrontHandler(map: RewriteMap): (event: ViewerRequestEvent) => ViewerRequest | FunctionResponse {
  return (event) => {
    const request = event.request;
    const answer = resolveRequest(map, request.method, request.uri + querySuffix(request));
    if (answer.kind === 'file') {
      request.uri = `/${answer.file}`;
      // The file alone names the answer: S3 gets (and the cache keys on) nothing else.
      request.querystring = {};
      return request;
    }
    const headers: Record<string, { value: string }> = {};
    for (const name in map.headers) headers[name.toLowerCase()] = { value: map.headers[name]! };
    if (answer.kind === 'redirect') {
      headers['location'] = { value: answer.location };
      return { statusCode: answer.status, headers };
    }
    return { statusCode: answer.status, headers, body: { encoding: 'text', data: answer.body } };
  };
}

/**
 * `?` and the query as the viewer sent it. `rawQueryString()` gives it whole; where it is missing
 * (or, as in the console's test tool, empty while parameters are present) the query is rebuilt from
 * `querystring`, whose names and values CloudFront passes still percent-encoded: the same pairs, the
 * order of different names aside, which the router does not read.
 */
function querySuffix(request: ViewerRequest): string {
  const pairs: string[] = [];
  for (const name in request.querystring) {
    const field = request.querystring[name]!;
    const values = field.multiValue ? field.multiValue : [field];
    for (let i = 0; i < values.length; i++) pairs.push(values[i]!.value === '' ? name : `${name}=${values[i]!.value}`);
  }
  const raw = typeof request.rawQueryString === 'function' ? request.rawQueryString() : undefined;
  if (typeof raw === 'string' && (raw !== '' || pairs.length === 0)) return `?${raw}`;
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
