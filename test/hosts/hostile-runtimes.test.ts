import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { netlifyEdge } from '../../src/hosts/netlify-edge/netlify-edge.ts';
import { vercelEdge } from '../../src/hosts/vercel-edge/vercel-edge.ts';
import { startPreview } from '../../src/preview/preview-server.ts';
import { startWorkerdPreview } from '../../src/preview/workerd-preview.ts';
import { emitHost } from '../support/emit-host.ts';
import type { RunningHost } from '../support/host-suite.ts';
import {
  ESCAPING_PATHS,
  HEAVY_REQUESTS,
  KNOWN_METHODS,
  MALFORMED_TARGETS,
  methodTarget,
  requestBytes,
  seededRequests,
  type HostileRequest,
} from '../support/hostile-cases.ts';
import { startSite } from '../support/netlify-edge-site.ts';
import { exchange } from '../support/raw-http.ts';
import { tempFolder } from '../support/temp-folder.ts';
import { startVercelProject } from '../support/vercel-edge-project.ts';

/**
 * One answer in every runtime (issue 36): each hostile request, sent as raw bytes over a TCP socket
 * (no client rewrites its target), gets the same status and body from the Worker in workerd, the
 * Netlify Edge Function in Deno and the Vercel Middleware in the edge runtime as from the preview,
 * the reference. Each runtime is started as its own host test starts it (test/hosts/<host>.test.ts).
 *
 * Two things a runtime does before the program runs are part of the comparison, each exact:
 * - workerd and the edge runtime hand the program `request.url` as the WHATWG URL parser makes it
 *   (dot segments resolved, `\\` read as `/`), Deno the target as sent: the program's answer to a
 *   request is the preview's answer to the target the runtime hands on;
 * - PLATFORM_ANSWERS: requests the runtime answers itself, never reaching the program (docs/hosts.md).
 */
interface Runtime {
  name: string;
  start(dir: string, scratch: string): Promise<RunningHost>;
  /** Whether the runtime hands the program the target as the WHATWG URL parser rewrites it. */
  parsesUrl: boolean;
}

const stoppable = async (started: Promise<{ url: string; close(): Promise<void> }>): Promise<RunningHost> => {
  const preview = await started;
  return { url: preview.url, stop: () => preview.close() };
};

const WORKERD = 'workerd (Cloudflare Worker)';
const DENO = 'Deno (Netlify Edge Function)';
const EDGE_RUNTIME = 'edge-runtime (Vercel Middleware)';
const REFERENCE: Runtime = { name: 'preview', parsesUrl: false, start: (dir) => stoppable(startPreview({ dir, port: 0 })) };
const RUNTIMES: Runtime[] = [
  { name: WORKERD, parsesUrl: true, start: (dir) => stoppable(startWorkerdPreview({ dir, port: 0 })) },
  { name: DENO, parsesUrl: false, start: (dir, scratch) => startSite(emitHost(netlifyEdge, dir, scratch)) },
  { name: EDGE_RUNTIME, parsesUrl: true, start: (dir, scratch) => startVercelProject(emitHost(vercelEdge, dir, scratch)) },
];

/** Methods outside the list workerd's HTTP parser knows (kj-http's), among those sent here. */
const WORKERD_UNKNOWN_METHODS = new Set(['FROBNICATE', 'BREW', 'M-SEARCH']);
const MALFORMED = new Set(MALFORMED_TARGETS.map(([name]) => name));
/** The longest request line Deno's HTTP server reads lies between these (measured: 65,000 characters pass, 70,000 do not). */
const DENO_HEAD_LIMIT = 65_536;

/**
 * What a runtime answers itself, before any code of ours runs, and why; each answer exact. Nothing
 * the program could answer otherwise is here.
 */
const PLATFORM_ANSWERS: { runtimes: string[]; applies(request: HostileRequest): boolean; answer(request: HostileRequest): string; why: string }[] = [
  {
    runtimes: [WORKERD],
    applies: (request) => WORKERD_UNKNOWN_METHODS.has(request.method),
    answer: () => '501 ERROR: Unrecognized request method.',
    why: "workerd reads only the methods of its parser's list; Cloudflare answers any other 501 before the Worker runs (workerd issue 6877)",
  },
  {
    runtimes: [DENO, EDGE_RUNTIME],
    applies: (request) => MALFORMED.has(request.name),
    answer: () => '400 ',
    why: "no platform hands code a request line with a NUL, a raw space or a control character: Deno's HTTP server and the edge runtime's front (Node's parser) refuse it with an empty 400",
  },
  {
    runtimes: [DENO],
    applies: (request) => request.target.length > DENO_HEAD_LIMIT,
    answer: () => '400 ',
    why: "Deno's HTTP server refuses a request head over 64 KiB with an empty 400",
  },
  {
    runtimes: [EDGE_RUNTIME],
    applies: (request) => request.method === 'TRACE' || request.method === 'CONNECT',
    answer: (request) => `501 edge-runtime: '${request.method}' HTTP method is unsupported.`,
    why: "the edge runtime's Request refuses Fetch's forbidden methods, so no middleware can run for them (the front says so with a 501)",
  },
];

const NAMED_REQUESTS: HostileRequest[] = [
  ...ESCAPING_PATHS.map((target) => ({ name: `GET ${target}`, method: 'GET', target })),
  ...MALFORMED_TARGETS.map(([name, target]) => ({ name, method: 'GET', target })),
  { name: 'an unknown method', method: 'FROBNICATE', target: '/api/v1/clients/' },
  ...KNOWN_METHODS.map((method) => ({ name: `${method} ${methodTarget(method)}`, method, target: methodTarget(method) })),
  ...HEAVY_REQUESTS,
];

const temp = tempFolder('mirror-hostile-runtimes-');
const running = new Map<string, RunningHost>();
/** The preview's answers, the reference, by method and target. */
const reference = new Map<string, Promise<string>>();

/** What a runtime answered: status and body, as one line to compare and print. */
async function answerOf(host: RunningHost, method: string, target: string | Buffer): Promise<string> {
  const port = Number(new URL(host.url).port);
  // The Host the runtime was reached at: the edge programs read the bundle back from the request's origin.
  const answer = await exchange(port, requestBytes(method, target, `127.0.0.1:${port}`), 30_000).catch(
    (error: Error) => ({ status: 0, body: Buffer.from(`no answer: ${error.message}`) }),
  );
  return `${answer.status} ${answer.body.toString('utf8')}`;
}

/**
 * The target as the WHATWG URL parser hands it on in `request.url`: raw bytes percent-encoded, dot
 * segments resolved, `\\` read as `/`, some characters percent-encoded. A target no HTTP parser hands
 * on (a control character or a space in it) or that is no path stays as sent.
 */
function parsedTarget(target: string | Buffer): string | Buffer {
  const text = Buffer.from(target).toString('latin1').replace(/[\x80-\xff]/g, (byte) => `%${byte.charCodeAt(0).toString(16).toUpperCase()}`);
  if (!text.startsWith('/') || /[\x00-\x20\x7f]/.test(text)) return target;
  try {
    const url = new URL(`http://mirror.test${text}`);
    return url.href.slice(url.origin.length);
  } catch {
    return target;
  }
}

/** The answer a runtime owes a request: the platform's own where it answers first, else the preview's to the target the runtime hands on. */
function expectedAnswer(runtime: Runtime, request: HostileRequest): Promise<string> {
  const platform = PLATFORM_ANSWERS.find((item) => item.runtimes.includes(runtime.name) && item.applies(request));
  if (platform !== undefined) return Promise.resolve(platform.answer(request));
  const target = runtime.parsesUrl ? parsedTarget(request.target) : request.target;
  const key = `${request.method} ${Buffer.from(target).toString('latin1')}`;
  if (!reference.has(key)) reference.set(key, answerOf(running.get(REFERENCE.name)!, request.method, target));
  return reference.get(key)!;
}

/** An answer short enough to read in a failure, and still whole to compare: a long one by its start, length and hash. */
const shown = (answer: string) =>
  answer.length <= 300 ? answer : `${answer.slice(0, 200)}... (${answer.length} characters, sha1 ${createHash('sha1').update(answer).digest('hex')})`;

beforeAll(async () => {
  const dir = inject('builtSets')['exact-3k']!;
  for (const runtime of [REFERENCE, ...RUNTIMES]) running.set(runtime.name, await runtime.start(dir, path.join(temp.path, runtime.name.replace(/\W+/g, '-'))));
}, 180_000);
afterAll(async () => {
  for (const host of running.values()) await host.stop();
  temp.remove();
});

describe.each(RUNTIMES.map((runtime) => [runtime.name, runtime] as const))('%s answers each hostile request as the preview does', (name, runtime) => {
  it.each(NAMED_REQUESTS.map((request) => [request.name, request] as const))('%s', async (_name, request) => {
    const expected = await expectedAnswer(runtime, request);
    expect(shown(await answerOf(running.get(name)!, request.method, request.target))).toBe(shown(expected));
  });

  it('answers 300 seeded random hostile requests as the preview does', async () => {
    const differences: string[] = [];
    for (const request of seededRequests(300)) {
      const [answer, expected] = await Promise.all([answerOf(running.get(name)!, request.method, request.target), expectedAnswer(runtime, request)]);
      if (answer !== expected) differences.push(`${request.name}: ${shown(answer)} (expected: ${shown(expected)})`);
    }
    expect(differences).toEqual([]);
  }, 120_000);
});

it('answers every hostile request itself where the platform does not: each platform answer is used', async () => {
  // A platform answer that no request needs any more is taken out of PLATFORM_ANSWERS.
  const requests = [...NAMED_REQUESTS, ...seededRequests(300)];
  for (const item of PLATFORM_ANSWERS) expect(requests.some((request) => item.applies(request)), item.why).toBe(true);
  // And the runtime's URL parser matters: some target is handed on rewritten.
  expect(requests.filter((request) => !Buffer.from(parsedTarget(request.target)).equals(Buffer.from(request.target))).length).toBeGreaterThan(10);
});
