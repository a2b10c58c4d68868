import type { ErrorAnswer, RewriteMap } from '../plan/rewrite-map.ts';
import { jsonText } from '../render/json-text.ts';
import { generatedNotice, type HostAdapter } from './host-adapter.ts';
import { headersBesideContentType } from './route-parts.ts';
import { CLOUDFRONT_FUNCTION, MAP_GLOBAL } from './host-programs.generated.ts';

/**
 * Amazon CloudFront in front of an S3 bucket holding the built folder. A CloudFront Function (viewer
 * request, runtime cloudfront-js-2.0) runs the router, src/routing/resolve-request.ts, bundled into
 * it (scripts/generate-host-programs.ts): for a page or a record it points `request.uri` at the file
 * and S3 serves it; errors and redirects it answers itself, with the map's bodies and headers.
 * S3 gives the files their Content-Type (object metadata, set when they are uploaded); a response
 * headers policy adds the map's other headers to them. A missing record is S3's 403 (404 when the
 * bucket may be listed), turned into the map's 404 by the distribution's custom error responses.
 */
export const cloudfront: HostAdapter = {
  name: 'cloudfront',
  summary: 'a CloudFront Function (viewer request) for an S3 origin, its response headers policy and distribution settings',
  files: ['function.js', 'response-headers-policy.json', 'distribution-config.json'],
  gaps: {
    methods:
      'CloudFront itself refuses a method other than GET, HEAD, OPTIONS, PUT, PATCH, POST and DELETE (PROPFIND...) before the function runs, with its own error',
  },
  emit: ({ map }) => [
    { name: 'function.js', text: functionCode(map) },
    { name: 'response-headers-policy.json', text: `${JSON.stringify(responseHeadersPolicy(map), null, 2)}\n` },
    { name: 'distribution-config.json', text: `${JSON.stringify(distributionConfig(map), null, 2)}\n` },
  ],
};

/** CloudFront Functions' limit on a function's code (its quotas page): the map must fit beside the router. */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/** Methods a cache behavior can let through: all of them, so that the function answers 405 itself. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

function functionCode(map: RewriteMap): string {
  return [
    generatedNotice(map, '//'),
    '// CloudFront Function: runtime cloudfront-js-2.0, associated at viewer request (see distribution-config.json).',
    `var ${MAP_GLOBAL}=${jsonText(functionMap(map))};`,
    CLOUDFRONT_FUNCTION,
  ].join('\n');
}

/**
 * The map as the function's router reads it. The per-method and per-filter variants of the 405 and
 * the filter 400 exist for hosts that can only serve a file; the function fills the templates, which
 * name the method or filter themselves, so the variants are left out: the function's code, map
 * included, must stay under CloudFront's 10 KB. The router answers the same without them (a test
 * compares the two maps on every request of both conformance sets).
 */
export function functionMap(map: RewriteMap): RewriteMap {
  const { methodNotAllowed, unsupportedFilter } = map.errors;
  return {
    ...map,
    errors: {
      ...map.errors,
      methodNotAllowed: { ...withoutVariants(methodNotAllowed), byMethod: {} },
      unsupportedFilter: { ...withoutVariants(unsupportedFilter), byName: {} },
    },
  };
}

function withoutVariants(answer: ErrorAnswer & { byMethod?: unknown; byName?: unknown }): ErrorAnswer {
  if (answer.template === undefined) throw new Error('only an error answer with a template can do without its variants');
  const { byMethod: _byMethod, byName: _byName, ...rest } = answer;
  return rest;
}

/** For `aws cloudfront create-response-headers-policy --response-headers-policy-config file://...`. */
function responseHeadersPolicy(map: RewriteMap): object {
  // S3 sends Content-Type from the objects' metadata; the policy adds the others.
  const headers = headersBesideContentType(map);
  return {
    Name: 'lda-clients-mirror-api-headers',
    Comment: `The API headers on the files S3 serves (${headers.map(([name]) => name).join(', ')}); Content-Type is the objects' metadata.`,
    CustomHeadersConfig: {
      Quantity: headers.length,
      Items: headers.map(([name, value]) => ({ Header: name, Value: value, Override: true })),
    },
  };
}

/**
 * The parts of a DistributionConfig (`aws cloudfront get-distribution-config`) that the function
 * needs, to merge into it: the default cache behavior lets every method CloudFront knows reach the
 * function (which answers 405 itself), runs it at viewer request, keys the cache on the rewritten URI
 * alone and adds the headers policy; the custom error responses turn S3's answer for a missing file
 * into the map's 404. FUNCTION-ARN and RESPONSE-HEADERS-POLICY-ID are the user's to fill in.
 */
function distributionConfig(map: RewriteMap): object {
  const notFound = map.errors.notFound;
  const errorResponse = (code: number) => ({
    ErrorCode: code,
    ResponsePagePath: `/${notFound.file}`,
    ResponseCode: String(notFound.status),
    ErrorCachingMinTTL: 60,
  });
  return {
    DefaultCacheBehavior: {
      AllowedMethods: {
        Quantity: ALLOWED_METHODS.length,
        Items: ALLOWED_METHODS,
        CachedMethods: { Quantity: 2, Items: ['GET', 'HEAD'] },
      },
      // Managed-CachingOptimized: no query string in the cache key; the function has put it in the URI.
      CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6',
      ResponseHeadersPolicyId: 'RESPONSE-HEADERS-POLICY-ID',
      FunctionAssociations: { Quantity: 1, Items: [{ EventType: 'viewer-request', FunctionARN: 'FUNCTION-ARN' }] },
    },
    // S3 answers 403 for a missing key unless the origin's identity may list the bucket, then 404.
    CustomErrorResponses: { Quantity: 2, Items: [errorResponse(403), errorResponse(404)] },
  };
}
