import type { Exchange } from './host-behaviours.ts';
import { startTestUpstream, type Fault, type LoggedRequest, type TestUpstream } from './test-upstream.ts';

/**
 * A test upstream that answers from a built folder, but makes one request in every five fail, cycling
 * through every way a struggling service or the gateway in front of it fails. Which request of each
 * five fails, and the order of the kinds, follow from a seed: the same seed, the same faults.
 */
export const FAULT_KINDS = [
  '502',
  '503',
  '429 with Retry-After: 1',
  'connection reset',
  'stall past the timeout',
  'body cut short',
  '200 with an HTML maintenance page',
  '200 with JSON of another shape',
  '200 without results',
  '200 with truncated JSON',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const MAINTENANCE_PAGE = `<!DOCTYPE html>
<html>
<head><title>Down for maintenance</title></head>
<body>
  <h1>We'll be back soon</h1>
  <p>The service is undergoing scheduled maintenance.</p>
</body>
</html>
`;

export interface FaultyUpstream extends TestUpstream {
  /** The faults answered so far, in the order the requests came. */
  injected: { request: number; target: string; kind: FaultKind }[];
}

export async function startFaultyUpstream(dir: string, seed: number, oneIn = 5): Promise<FaultyUpstream> {
  const random = mulberry32(seed);
  const kinds = shuffled([...FAULT_KINDS], random);
  const injected: FaultyUpstream['injected'] = [];
  let faultyRequest = 0; // the request of the current run of `oneIn` that fails
  const upstream = await startTestUpstream(dir, (request, honest) => {
    const index = request.number - 1;
    if (index % oneIn === 0) faultyRequest = index + Math.floor(random() * oneIn);
    if (index !== faultyRequest) return undefined;
    const kind = kinds[injected.length % kinds.length]!;
    injected.push({ request: request.number, target: request.target, kind });
    return faultOf(kind, request, honest);
  });
  return Object.assign(upstream, { injected });
}

function faultOf(kind: FaultKind, request: LoggedRequest, honest: () => Exchange): Fault {
  const json = { 'content-type': 'application/json' };
  switch (kind) {
    case '502':
      return { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>\n' };
    case '503':
      return { status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream connect error or disconnect/reset before headers' };
    case '429 with Retry-After: 1':
      return { status: 429, headers: { ...json, 'retry-after': '1' }, body: '{"detail":"Request was throttled. Expected available in 1 second."}' };
    case 'connection reset':
      return 'reset';
    case 'stall past the timeout':
      return 'stall';
    case 'body cut short':
      return 'cut';
    case '200 with an HTML maintenance page':
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: MAINTENANCE_PAGE };
    case '200 with JSON of another shape':
      return { status: 200, headers: json, body: `{"detail":"Request ${request.number} could not be served, try again."}` };
    case '200 without results': {
      const { results: _dropped, ...rest } = JSON.parse(honest().body.toString('utf8')) as Record<string, unknown>;
      return { status: 200, headers: json, body: JSON.stringify(rest) };
    }
    case '200 with truncated JSON': {
      // A whole HTTP answer (its Content-Length matches) whose JSON a proxy cut off halfway.
      const body = honest().body;
      return { status: 200, headers: json, body: body.subarray(0, Math.floor(body.length / 2)) };
    }
  }
}

/** A small seeded generator (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
