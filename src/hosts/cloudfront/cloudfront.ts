import { recordRoutes, type ErrorAnswer, type RewriteMap } from '../../plan/rewrite-map.ts';
import { edgeProgram } from '../edge-programs.ts';
import { generatedNotice, type HostAdapter } from '../host-adapter.ts';
import { headersBesideContentType } from '../route-parts.ts';
import { importFile, listedValues, storeEntries } from './key-value-store.ts';

/**
 * Amazon CloudFront in front of an S3 bucket holding the built folder. A CloudFront Function (viewer
 * request, runtime cloudfront-js-2.0) runs the router, src/routing/resolve-request.ts, bundled into
 * it (./runtime/, bundled by ../program-bundler.ts), over the map it reads from its key value store
 * (./key-value-store.ts): for a page or a record it points `request.uri` at the file and S3 serves
 * it; errors, redirects and the empty list of a filter value without clients it answers itself, with
 * the map's bodies and headers. S3 gives the files their Content-Type (object metadata, set when they
 * are uploaded); a response headers policy adds the map's other headers to them. A missing record is
 * S3's 403 (404 when the bucket may be listed), turned into the record routes' `missingFile` answer
 * by the distribution's custom error responses. See notes.md beside this file.
 */
export const cloudfront: HostAdapter = {
  name: 'cloudfront',
  summary: 'a CloudFront Function (viewer request) and its key value store for an S3 origin, its response headers policy and distribution settings',
  files: ['function.js', 'key-value-store.json', 'function-config.json', 'response-headers-policy.json', 'distribution-config.json'],
  gaps: {
    methods:
      'CloudFront itself refuses a method other than GET, HEAD, OPTIONS, PUT, PATCH, POST and DELETE (PROPFIND...) before the function runs, with its own error',
  },
  emit: ({ map, dir }) => [
    { name: 'function.js', text: functionCode(map) },
    { name: 'key-value-store.json', text: importFile(storeEntries(map, listedValues(map, dir))) },
    { name: 'function-config.json', text: `${JSON.stringify(FUNCTION_CONFIG, null, 2)}\n` },
    { name: 'response-headers-policy.json', text: `${JSON.stringify(responseHeadersPolicy(map), null, 2)}\n` },
    { name: 'distribution-config.json', text: `${JSON.stringify(distributionConfig(map), null, 2)}\n` },
  ],
};

/**
 * How the runtime's own module is imported ("Helper methods for key value stores": on the code's first
 * lines). The quotes are escaped so that test/unit/architecture.test.ts does not read it as an import here.
 */
export const CLOUDFRONT_MODULE = { statement: 'import cf from \'cloudfront\';', binding: 'cf' };

/** CloudFront Functions' limit on a function's code (its quotas page). */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/** Methods a cache behavior can let through: all of them, so that the function answers 405 itself. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

/**
 * For `aws cloudfront create-function --function-config file://...` (and update-function): runtime 2.0,
 * which key value stores need, and the store's association. KEY-VALUE-STORE-ARN is the user's to fill in.
 */
const FUNCTION_CONFIG = {
  Comment: 'lda-clients-mirror router',
  Runtime: 'cloudfront-js-2.0',
  KeyValueStoreAssociations: { Quantity: 1, Items: [{ KeyValueStoreARN: 'KEY-VALUE-STORE-ARN' }] },
};

/** The import, the emit notice, the minified program: the same code for every build but the notice. */
function functionCode(map: RewriteMap): string {
  return [
    CLOUDFRONT_MODULE.statement,
    generatedNotice(map, '//'),
    '// cloudfront-js-2.0, viewer request: the router (src/hosts/cloudfront/runtime/) in ES5, minified; the map is in the key value store.',
    edgeProgram('cloudfront-function'),
  ].join('\n');
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
  const missing = missingFileAnswer(map);
  const errorResponse = (code: number) => ({
    ErrorCode: code,
    ResponsePagePath: `/${missing.file}`,
    ResponseCode: String(missing.status),
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

/**
 * What answers a file S3 does not have. A distribution has one error page per origin status, not
 * one per route, so the routes whose files can be missing must agree: those with `{id}` (an id no
 * record has). A route without `{id}` names only files the build writes (every choice, pages 1 to
 * `last`), so its `missingFile` is never needed.
 */
function missingFileAnswer(map: RewriteMap): ErrorAnswer {
  const names = [...new Set(recordRoutes(map).map((route) => route.missingFile))];
  if (names.length !== 1) {
    throw new Error(`CloudFront answers every missing file with one error page, but the record routes ask for ${names.join(', ') || 'none'}`);
  }
  return map.errors[names[0]!];
}
