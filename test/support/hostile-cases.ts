/**
 * The hostile requests of issue 36, shared by the preview's own suite (test/e2e/hostile-requests.test.ts,
 * which checks that each is answered safely) and by the runtimes' suite (test/hosts/hostile-runtimes.test.ts,
 * which checks that the preview, workerd, Deno and the edge runtime answer each the same).
 */

/** A request as sent on the wire: the target raw (a Buffer when it holds bytes no string spells). */
export interface HostileRequest {
  name: string;
  method: string;
  target: string | Buffer;
}

/** Paths that try to reach outside the build, or that no parser reads the same way. */
export const ESCAPING_PATHS = [
  '/../secret.json',
  '/../../secret',
  '/api/v1/clients/../../../secret.json',
  '/api/v1/clients/..%2f..%2f..%2fsecret.json',
  '/api/v1/clients/%2e%2e/%2e%2e/%2e%2e/secret.json',
  '/api/v1/clients/%2E%2E%2F%2E%2E%2Fsecret.json',
  '/api/v1/clients/..\\..\\..\\secret.json',
  '/api/v1/clients/%5c..%5c..%5csecret.json',
  '/api/v1/clients/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.json',
  '/api/v1/clients/%252e%252e/%252e%252e/secret.json',
  '/api/v1/clients/1%00.json',
  '/api/v1/clients/%00/',
  '/api/v1/clients/%zz/',
  '/api/v1/clients/?page=%',
  '/api/v1/clients/?ordering=%e0%a4',
  '/rewrite-map.json',
  '/_build/manifest.tsv',
  '/pages/none/none/1.json',
] as const;

/** Targets with bytes a request line must not hold: every runtime answers them 400. */
export const MALFORMED_TARGETS: readonly (readonly [string, Buffer])[] = [
  ['a NUL byte in the request line', Buffer.from('/api/v1/clients/\0/')],
  ['a raw space inside the target', Buffer.from('/api/v1/ clients/')],
  ['a control character', Buffer.from('/api/v1/clients/\x07/')],
];

/** Methods an HTTP parser knows but the API does not take: each a 405. */
export const KNOWN_METHODS = ['POST', 'PROPFIND', 'TRACE', 'OPTIONS', 'CONNECT'] as const;

/** The target CONNECT names (an authority, not a path), else the list. */
export const methodTarget = (method: string) => (method === 'CONNECT' ? 'mirror.test:443' : '/api/v1/clients/');

/** `count` parameters `x=1` joined, then `tail`: a query of many fields. */
export const manyFields = (count: number, tail: string) => `/api/v1/clients/?${Array.from({ length: count }, () => 'x=1').join('&')}&${tail}`;

/** The heavy requests of issue 36's "Why", each beside the request whose answer it must equal (or alone). */
export const HEAVY_REQUESTS: readonly HostileRequest[] = [
  { name: 'ordering=name repeated 3,000 times', method: 'GET', target: `/api/v1/clients/?ordering=${Array(3000).fill('name').join(',')}` },
  { name: 'ordering=name repeated 3,199 times (a 16 KB target)', method: 'GET', target: `/api/v1/clients/?ordering=${Array(3199).fill('name').join(',')}` },
  { name: 'ordering=name once', method: 'GET', target: '/api/v1/clients/?ordering=name' },
  { name: 'a 15,000-character unique client_name', method: 'GET', target: `/api/v1/clients/?client_name=${'Q'.repeat(15_000)}` },
  { name: 'raw UTF-8 bytes in the query', method: 'GET', target: Buffer.from('/api/v1/clients/?client_name=CLI\u00c9NT&x=\u00e9', 'utf8') },
  { name: 'the same bytes percent-encoded', method: 'GET', target: '/api/v1/clients/?client_name=CLI%C3%89NT&x=%C3%A9' },
  { name: 'raw UTF-8 bytes in the path', method: 'GET', target: Buffer.from('/api/v1/clients/\u00e9/', 'utf8') },
  { name: 'a target of 20,000 characters', method: 'GET', target: `/api/v1/clients/?ordering=${'x'.repeat(20_000)}` },
  { name: 'a target of 100,000 characters', method: 'GET', target: `/api/v1/clients/?ordering=${'x'.repeat(100_000)}` },
  { name: 'a target of exactly 16,384 characters', method: 'GET', target: `/api/v1/clients/?junk=${'x'.repeat(16_384 - '/api/v1/clients/?junk=&page=2'.length)}&page=2` },
  { name: '3,000 parameters, page last', method: 'GET', target: manyFields(3000, 'page=2&page=1') },
  { name: '1,000 parameters', method: 'GET', target: manyFields(999, 'page=1') },
  { name: 'HEAD of a search', method: 'HEAD', target: '/api/v1/clients/?client_name=bank' },
];

/** `count` hostile requests drawn from pieces of paths, queries and methods, the same for the same seed. */
export function seededRequests(count: number, seed = 20261121): HostileRequest[] {
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const pick = <T>(list: readonly T[]) => list[random(list.length)]!;
  const starts = ['/', '/api/v1/clients/', '/api/v1/registrants/', '/api/v1/clients/1/', '/api/', '//api//v1//clients', '/pages/'];
  const pieces = [
    '..', '../', '..%2f', '%2e%2e', '%2E%2E%2F', '..\\', '%5c', '%c0%ae', '%c0%af', '%252e', '%00', '%zz', '%', '%e0%a4',
    '1', '0001', '99999999999999999999999', 'secret.json', 'rewrite-map.json', '_build', '/', '//', '~', '%ff', 'é', '%u002e',
  ];
  const names = ['page', 'ordering', 'format', 'page_size', 'client_name', 'id', 'x', '', '%70age', 'page[]'];
  const values = ['1', '2', 'last', '-id', '-name', 'api', 'json', 'xml', '', '%00', '../secret', '0', '-1', '1e3', 'x'.repeat(300)];
  const methods = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'BREW', 'M-SEARCH'];
  return Array.from({ length: count }, () => {
    let target = pick(starts);
    for (let n = random(5); n > 0; n--) target += pick(pieces);
    if (random(2) === 0) target += `?${Array.from({ length: 1 + random(6) }, () => `${pick(names)}=${pick(values)}`).join('&')}`;
    const method = pick(methods);
    // 'é' is sent as its UTF-8 bytes, raw.
    return { name: `${method} ${target}`, method, target: Buffer.from(target, 'utf8') };
  });
}

/** The bytes of a request, sent as they are with Connection: close. */
export function requestBytes(method: string, target: string | Buffer, host: string): Buffer {
  return Buffer.concat([Buffer.from(`${method} `), Buffer.from(target), Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)]);
}
