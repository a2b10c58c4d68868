import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Behaviour } from '../../src/hosts/behaviours.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { resolveRequest } from '../../src/routing/resolve-request.ts';
import { parseDetail } from './conformance.ts';

/**
 * The requests behind each column of docs/hosts.md's host table, written for a build of the lda-real
 * conformance set (74 clients, 3 pages; client 153637 and registrant 401105130 exist), and the rules
 * for comparing a host's answer with the preview's. Every host's tests send these: through a real
 * server where one runs here, through the emitted rules evaluated as the host documents them otherwise.
 */
export interface Probe {
  method: string;
  target: string;
}

const get = (target: string): Probe => ({ method: 'GET', target });

export const BEHAVIOUR_PROBES: Record<Behaviour, Probe[]> = {
  orderings: ['', '?ordering=-id', '?ordering=-name', '?ordering=-effective_date', '?ordering=-id&page=2'].map((q) =>
    get(`/api/v1/clients/${q}`),
  ),
  pages: ['?page=1', '?page=2', '?page=3', '?page=02', '?page=', '?page=0', '?page=4', '?page=-1', '?page=abc', '?page=2.5', '?page=99999999'].map(
    (q) => get(`/api/v1/clients/${q}`),
  ),
  last: [get('/api/v1/clients/?page=last'), get('/api/v1/clients/?ordering=-name&page=last&format=json')],
  formats: [
    '/api/v1/clients/?format=api',
    '/api/v1/clients/?format=json&page=2',
    '/api/v1/clients/?format=xml',
    '/api/v1/clients/153637/?format=json',
    '/api/v1/clients/153637/?format=xml',
    '/api/v1/registrants/401105130/?format=api',
    '/api/v1/clients/153637/',
    '/api/v1/clients/1/',
  ].map(get),
  rejections: [
    '?ordering=name',
    '?ordering=bogus&page=2',
    '?page_size=10',
    '?page_size=100&page=2',
    '?page_size=0',
    '?client_name=PFIZER',
    '?id=5',
    '?client_ppb_state=TX',
    '?client_state=TX&registrant_id=401105130',
    '?client_name=&page=2',
    '?utm_source=newsletter',
    '?format=xml&ordering=bogus',
    '?ordering=bogus&page_size=10',
  ].map((q) => get(`/api/v1/clients/${q}`)),
  filters: [
    '?client_country=US',
    '?client_country=US&page=2&ordering=-name',
    '?page=last&format=json&client_country=US',
    '?client_country=US&page=4',
    '?client_state=TX&format=api',
    '?client_state=WY',
    '?client_state=WY&page=last&ordering=-id',
    '?client_state=WY&page=2',
    '?client_state=tx',
    '?client_country=USA&page=2',
    '?registrant_id=401105130&ordering=-effective_date',
    '?registrant_id=000401105130',
    '?registrant_id=401105130.75',
    '?registrant_id=%2B401105130',
    '?registrant_id=401105130&page=2',
    '?registrant_id=1',
    '?registrant_id=-3&page=last',
    '?registrant_id=abc',
    '?registrant_id=&client_state=',
  ].map((q) => get(`/api/v1/clients/${q}`)),
  filterSpellings: [
    '?registrant_id=4.01105130e8',
    '?registrant_id=%20401105130%09',
    '?registrant_id=401_105_130',
    '?registrant_id=%D9%A7',
    '?registrant_id=1e999999',
    '?registrant_id=NaN',
    '?client_state=t%22x',
    '?client_state=T%C3%A9xas',
    '?client_country=U+S',
  ].map((q) => get(`/api/v1/clients/${q}`)),
  methods: [
    { method: 'POST', target: '/api/v1/clients/' },
    { method: 'DELETE', target: '/api/v1/clients/153637/' },
    { method: 'PUT', target: '/api/v1/clients/?page=2' },
    { method: 'PROPFIND', target: '/api/v1/clients/' },
    { method: 'POST', target: '/nowhere/' },
  ],
  head: [
    { method: 'HEAD', target: '/api/v1/clients/?ordering=-id&page=2' },
    { method: 'HEAD', target: '/api/v1/clients/153637/' },
    { method: 'HEAD', target: '/api/v1/clients/?page=9' },
  ],
  missingSlash: ['/api/v1/clients', '/api/v1/clients?ordering=-id&page=2', '/api/v1/clients/153637', '/api/v1/clients/153637//', '/api/v1//clients/?page=2'].map(get),
  headers: [
    get('/api/v1/clients/?page=2'),
    get('/api/v1/clients/153637/'),
    get('/api/v1/clients/?page=9'),
    get('/api/v1/clients/?ordering=bogus'),
    { method: 'POST', target: '/api/v1/clients/' },
    get('/api/v1/clients?page=2'),
    get('/elsewhere'),
  ],
  percentDecoding: [
    '/api/v1/clients/?ordering=%2Did',
    '/api/v1/clients/?ordering=%2did&page=%32',
    '/api/v1/clients/?%70age=2',
    '/api/v1/clients/?format=%6Ason',
    '/api/v1/clients/?ordering=%2Dbogus',
    '/api/v1/clients/%31%35%33%36%33%37/',
    '/api/v1/%63lients/?page=2',
  ].map(get),
  repeatedParameters: [
    '/api/v1/clients/?page=2&page=3',
    '/api/v1/clients/?page=9&page=2',
    '/api/v1/clients/?ordering=bogus&ordering=-id',
    '/api/v1/clients/?ordering=-id&ordering=bogus',
    '/api/v1/clients/?format=xml&format=json',
    '/api/v1/clients/?client_name=X&client_name=',
  ].map(get),
};

/** The behaviours that compare headers; the others compare status, body and Location only. */
const HEADER_BEHAVIOURS: Behaviour[] = ['headers'];

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** What the preview answers, from the same map and files: the reference every host is held to. */
export function expectedExchange(map: RewriteMap, dir: string, probe: Probe): Exchange {
  let answer = resolveRequest(map, probe.method === 'HEAD' ? 'GET' : probe.method, probe.target);
  // As the preview does: a file the build did not write is the route's missing-file answer.
  if (answer.kind === 'file' && !existsSync(path.join(dir, answer.file))) answer = { kind: 'error', ...answer.missing };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(map.headers)) headers[name.toLowerCase()] = value;
  let body: Buffer;
  if (answer.kind === 'file') body = readFileSync(path.join(dir, answer.file));
  else if (answer.kind === 'error') body = Buffer.from(answer.body);
  else {
    headers.location = answer.location;
    body = Buffer.alloc(0);
  }
  if (probe.method === 'HEAD') body = Buffer.alloc(0);
  return { status: answer.status, headers, body };
}

/**
 * How `actual` differs from the preview's answer, empty when it answers the same. A 400 with a `detail`
 * may word it differently as long as it names the rejected parameter (conformance README, `detail400`);
 * the live service's own 400 bodies (a filter's invalid value) are compared exactly; a redirect's
 * Location is compared after resolving it against the request.
 */
export function differences(behaviour: Behaviour, probe: Probe, expected: Exchange, actual: Exchange): string[] {
  const problems: string[] = [];
  if (actual.status !== expected.status) problems.push(`status ${actual.status}, expected ${expected.status}`);
  if (expected.status === 301) {
    const location = actual.headers.location;
    const resolved = typeof location === 'string' ? new URL(location, `http://mirror.test${probe.target}`) : undefined;
    const got = resolved ? `${resolved.pathname}${resolved.search}` : String(location);
    if (got !== expected.headers.location) problems.push(`Location ${got}, expected ${String(expected.headers.location)}`);
  } else if (expected.status === 400 && parseDetail(expected.body) !== undefined) {
    const detail = parseDetail(actual.body);
    const parameter = /(?:Unsupported (?:filter )?|Filters )(\w+)/.exec(expected.body.toString())?.[1] ?? '';
    if (detail === undefined || !detail.includes(parameter)) problems.push(`400 detail ${JSON.stringify(detail)} does not name ${parameter}`);
  } else if (!actual.body.equals(expected.body)) {
    problems.push(`body ${JSON.stringify(actual.body.subarray(0, 80).toString())}, expected ${JSON.stringify(expected.body.subarray(0, 80).toString())}`);
  }
  if (HEADER_BEHAVIOURS.includes(behaviour)) {
    for (const name of ['content-type', 'vary', 'allow']) {
      if (actual.headers[name] !== expected.headers[name]) {
        problems.push(`header ${name}: ${JSON.stringify(actual.headers[name])}, expected ${JSON.stringify(expected.headers[name])}`);
      }
    }
  }
  return problems.map((problem) => `${probe.method} ${probe.target}: ${problem}`);
}
