import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { LIST_PATH } from '../../src/contract.ts';
import { listPageFile } from '../../src/plan/site-layout.ts';
import { startPreview } from '../../src/preview/preview-server.ts';
import { RateLimiter, type Clock } from '../../src/sync/rate-limiter.ts';
import { retryAfterMs } from '../../src/sync/upstream.ts';
import type { SyncOptions } from '../../src/sync/sync-options.ts';
import { sync } from '../../src/sync/sync.ts';
import { SyncError } from '../../src/sync/walk.ts';
import { REPO_ROOT, runCli } from '../support/cli.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { builtFromRecords } from '../support/folder-snapshot.ts';
import { spawnAsync } from '../support/spawn-async.ts';
import { startTestUpstream, type Fault, type LoggedRequest } from '../support/test-upstream.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * npm run sync against real HTTP upstreams on loopback: the preview of a build (the round trip), and
 * a test upstream that throttles, fails and drops connections on purpose. Waits are short here
 * (Retry-After: 1, backoff of 50 ms), but honoured exactly as with the live service.
 */
const temp = tempFolder('mirror-sync-');
const SET = 'synthetic-1k';
let full: string; // the set built: 1,000 clients, 40 pages
let older: string; // the same without the 100 highest ids: yesterday's upstream
let shrunk: string; // the set with one client removed

const fast = (out: string, upstream: string, extra: Partial<SyncOptions> = {}): SyncOptions => ({
  upstream,
  out,
  rate: 60_000,
  concurrency: 4,
  mode: 'incremental',
  maxTries: 5,
  backoffMs: 50,
  timeoutMs: 10_000,
  ...extra,
});

async function buildFrom(input: string, out: string): Promise<string> {
  await build(resolveBuildOptions({ input: [input], out, baseUrl: CONFORMANCE_BASE_URL }));
  return out;
}

/** The input of the set, its lines sorted by id, keeping those `keep` accepts. */
function writeSubset(name: string, keep: (id: number, index: number, all: number) => boolean): string {
  const lines = readFileSync(path.join(setFolder(SET), 'input.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ id: (JSON.parse(line) as { id: number }).id, line }))
    .sort((a, b) => a.id - b.id);
  const file = path.join(temp.path, `${name}.ndjson`);
  writeFileSync(file, lines.filter((entry, index) => keep(entry.id, index, lines.length)).map((entry) => entry.line).join('\n'));
  return file;
}

beforeAll(async () => {
  full = await buildFrom(path.join(setFolder(SET), 'input.ndjson'), path.join(temp.path, 'full'));
  older = await buildFrom(writeSubset('older', (_id, index, all) => index < all - 100), path.join(temp.path, 'older'));
  shrunk = await buildFrom(writeSubset('shrunk', (_id, index) => index !== 10), path.join(temp.path, 'shrunk'));
}, 120_000);
afterAll(() => temp.remove());

/** The requests of the clients list (a sync then walks the registrants list, contract section 10). */
function clientRequests(log: readonly LoggedRequest[]): LoggedRequest[] {
  return log.filter((request) => request.target.startsWith(LIST_PATH));
}

/** A site built from what a sync saved, compared file by file with the site it was synced from. */
async function expectRoundTrip(syncedFolder: string, original: string, name: string): Promise<void> {
  const rebuilt = await buildFrom(syncedFolder, path.join(temp.path, name));
  expect(builtFromRecords(rebuilt)).toEqual(builtFromRecords(original));
}

describe('a round trip through the preview', () => {
  it('build, preview, sync from the preview, build again: byte-identical output', async () => {
    const preview = await startPreview({ dir: full, port: 0 });
    try {
      const out = path.join(temp.path, 'round-trip');
      const summary = await sync(fast(out, preview.url, { mode: 'full' }));
      expect(summary).toMatchObject({ mode: 'full', records: 1000, pagesFetched: 40, pagesResumed: 0, retries: 0 });
      await expectRoundTrip(out, full, 'round-trip-site');
    } finally {
      await preview.close();
    }
  });

  it('a sync killed midway carries on where it stopped, and the result is the same', async () => {
    const upstream = await startTestUpstream(full);
    const out = path.join(temp.path, 'killed');
    try {
      // Ten requests a second: the kill lands after a dozen pages of forty.
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sync', '--upstream', upstream.url, '--out', out, '--full', '--rate', '600', '--concurrency', '1'], {
        cwd: REPO_ROOT,
        stdio: 'ignore',
      });
      while (upstream.log.length < 12) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const before = upstream.log.length;
      expect(existsSync(path.join(out, 'clients.ndjson'))).toBe(false);

      const resumed = runCliAsync(['sync', '--upstream', upstream.url, '--out', out, '--full', '--rate', '60000']);
      const result = await resumed;
      expect(result.status, result.stderr).toBe(0);
      const again = clientRequests(upstream.log.slice(before)).map((request) => request.target);
      // Not from page 1 onwards: page 1 again (for the count), then only the pages not yet saved.
      expect(again.length).toBeLessThanOrEqual(40 - before + 3);
      expect(again).not.toContain('/api/v1/clients/?page=2');
      expect(result.stdout).toMatch(/kept from an interrupted run/);
      expect(readdirSync(out)).toEqual(['clients.ndjson', 'registrants.ndjson']);
      await expectRoundTrip(out, full, 'killed-site');
    } finally {
      await upstream.stop();
    }
  });
  it('an upstream whose default order is not by id: the records are still saved sorted by id', async () => {
    // Pages answered in -id order: the written-as-they-come path sees ids go down and merges in memory.
    const byDescendingId = (request: LoggedRequest): Fault | undefined => {
      if (!request.target.startsWith(LIST_PATH)) return undefined;
      const page = /[?&]page=([0-9]+)/.exec(request.target)?.[1] ?? '1';
      return { status: 200, body: readFileSync(path.join(full, listPageFile(LIST_PATH, undefined, '', '-id', Number(page))), 'utf8') };
    };
    const upstream = await startTestUpstream(full, byDescendingId);
    try {
      const out = path.join(temp.path, 'descending');
      expect((await sync(fast(out, upstream.url, { mode: 'full' }))).records).toBe(1000);
      const ids = readFileSync(path.join(out, 'clients.ndjson'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      await expectRoundTrip(out, full, 'descending-site');
    } finally {
      await upstream.stop();
    }
  });
});

describe('an upstream that throttles, fails and drops connections', () => {
  it('is synced correctly, waiting out Retry-After and backing off', async () => {
    const faults: Record<number, Fault> = {
      3: { status: 429, headers: { 'Retry-After': '1' }, body: '{"detail":"Request was throttled."}' },
      6: { status: 503, body: 'unavailable' },
      7: { status: 502 },
      10: 'drop',
      14: 'cut',
      18: { status: 500, body: 'oops' },
    };
    const upstream = await startTestUpstream(full, (request) => faults[request.number]);
    try {
      const out = path.join(temp.path, 'flaky');
      const retries: string[] = [];
      const summary = await sync(fast(out, upstream.url, { mode: 'full', concurrency: 1, onRetry: (event) => retries.push(event.reason) }));
      expect(summary.records).toBe(1000);
      expect(summary.retries).toBe(6);
      expect(retries).toEqual([
        'HTTP 429',
        'HTTP 503',
        'HTTP 502',
        expect.stringMatching(/^connection failed/),
        expect.stringMatching(/^connection failed|terminated/),
        'HTTP 500',
      ]);
      // Retry-After: 1 holds back every request for a second, not only the retried one.
      expect(upstream.log[3]!.at - upstream.log[2]!.at).toBeGreaterThanOrEqual(1000);
      // 503 then 502 on the same page: 50 ms, then 100 ms.
      expect(upstream.log[6]!.at - upstream.log[5]!.at).toBeGreaterThanOrEqual(50);
      expect(upstream.log[7]!.at - upstream.log[6]!.at).toBeGreaterThanOrEqual(100);
      await expectRoundTrip(out, full, 'flaky-site');
    } finally {
      await upstream.stop();
    }
  });

  it('fails clearly after the tries allowed, keeping the records it had', async () => {
    const upstream = await startTestUpstream(full);
    const out = path.join(temp.path, 'gives-up');
    try {
      await sync(fast(out, upstream.url, { mode: 'full' }));
      const before = readFileSync(path.join(out, 'clients.ndjson'));
      const failing = await startTestUpstream(full, () => ({ status: 503, body: 'down' }));
      try {
        const error = await sync(fast(out, failing.url, { mode: 'full', maxTries: 3 })).catch((caught: Error) => caught);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toBe(`${failing.url}/api/v1/clients/ failed 3 times; the last answer: HTTP 503`);
        expect(failing.log).toHaveLength(3);
      } finally {
        await failing.stop();
      }
      expect(readFileSync(path.join(out, 'clients.ndjson')).equals(before)).toBe(true);
    } finally {
      await upstream.stop();
    }
  });

  it('spaces requests to the rate asked for', async () => {
    const upstream = await startTestUpstream(full);
    try {
      // 600 a minute is one every 100 ms, however many are in flight.
      await sync(fast(path.join(temp.path, 'paced'), upstream.url, { mode: 'full', rate: 600, concurrency: 4 }));
      // What a server's throttle counts: requests in any window of a second, at most 10 (+1 for the
      // window's edge). Arrival times carry tens of ms of network jitter, so neighbours are not compared.
      // The clients' 40 pages, then the registrants' within the same rate.
      const log = upstream.log;
      expect(clientRequests(log)).toHaveLength(40);
      const busiest = Math.max(...log.map((first) => log.filter((request) => request.at >= first.at && request.at < first.at + 1000).length));
      expect(busiest).toBeLessThanOrEqual(11);
      expect(log.at(-1)!.at - log[0]!.at).toBeGreaterThanOrEqual((log.length - 2) * 100);
    } finally {
      await upstream.stop();
    }
  });
});

describe('an upstream that announces its end', () => {
  const SUNSET = 'Tue, 30 Jun 2026 23:59:59 GMT';
  const SUCCESSOR = '<https://lda.gov/api/v1/>; rel="successor-version"';

  it('is named once on a warning line with its new address, and the sync still completes', async () => {
    // The live service's own headers on every answer, as lda.senate.gov sends them.
    const upstream = await startTestUpstream(full, (_request, honest) => {
      const answer = honest();
      return { status: answer.status, headers: { ...(answer.headers as Record<string, string>), Deprecation: '@1782863999', Sunset: SUNSET, Link: SUCCESSOR }, body: answer.body };
    });
    try {
      const result = await runCliAsync(['sync', '--upstream', upstream.url, '--out', path.join(temp.path, 'moved'), '--full', '--rate', '60000']);
      expect(result.status).toBe(0);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('sync: warning:'));
      expect(warnings).toEqual([
        `sync: warning: ${upstream.url}/api/v1/clients/ announces its end on ${SUNSET} (Sunset header); its new address: https://lda.gov/api/v1/ (use --upstream https://lda.gov)`,
      ]);
    } finally {
      await upstream.stop();
    }
  });

  it('reads a successor link among other links, and says nothing when neither header is sent', async () => {
    const notices: unknown[] = [];
    const upstream = await startTestUpstream(full, (_request, honest) => {
      const answer = honest();
      return { status: answer.status, headers: { ...(answer.headers as Record<string, string>), Link: '<https://example.org/doc>; rel="help", <https://lda.gov/api/v1/>; rel="latest-version successor-version"' }, body: answer.body };
    });
    const quiet = await startTestUpstream(full);
    try {
      await sync(fast(path.join(temp.path, 'linked'), upstream.url, { mode: 'full', onMoved: (notice) => notices.push(notice) }));
      await sync(fast(path.join(temp.path, 'quiet'), quiet.url, { mode: 'full', onMoved: (notice) => notices.push(notice) }));
      expect(notices).toEqual([{ url: `${upstream.url}/api/v1/clients/`, successor: 'https://lda.gov/api/v1/' }]);
    } finally {
      await upstream.stop();
      await quiet.stop();
    }
  });
});

describe('the key', () => {
  it('goes in "Authorization: Token <key>" on every request and is never printed', async () => {
    const upstream = await startTestUpstream(full, (request) => (request.number > 5 ? { status: 401, body: '{"detail":"Invalid token."}' } : undefined));
    try {
      const out = path.join(temp.path, 'keyed');
      const result = await runCliAsync(['sync', '--upstream', upstream.url, '--out', out, '--full', '--rate', '60000', '--concurrency', '1'], {
        LDA_API_KEY: 'k3y-s3cr3t',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('answered 401 (the key was refused: check --token or LDA_API_KEY)');
      expect(`${result.stdout}${result.stderr}`).not.toContain('k3y-s3cr3t');
      expect(new Set(upstream.log.map((request) => request.authorization))).toEqual(new Set(['Token k3y-s3cr3t']));
    } finally {
      await upstream.stop();
    }
  });

  it('raises the default rate to the keyed limit', () => {
    const help = runCli(['sync', '--help']);
    expect(help.stdout).toContain('default: 15, or 120 with a key');
  });
});

describe('incremental sync', () => {
  it('fetches only the new pages by -id and merges them: the same records as a full sync', async () => {
    const upstream = await startTestUpstream(older);
    try {
      const out = path.join(temp.path, 'nightly-data');
      expect((await sync(fast(out, upstream.url))).fellBackToFull).toContain('does not exist yet');
      await upstream.serve(full);
      const before = upstream.log.length;
      const summary = await sync(fast(out, upstream.url));
      expect(summary).toMatchObject({ mode: 'incremental', records: 1000, added: 100 });
      // 100 new records are 4 pages by -id, plus the page where the known ids start.
      expect(clientRequests(upstream.log.slice(before)).map((request: LoggedRequest) => request.target)).toEqual([
        '/api/v1/clients/?ordering=-id',
        ...[2, 3, 4, 5].map((page) => `/api/v1/clients/?ordering=-id&page=${page}`),
      ]);
      await expectRoundTrip(out, full, 'incremental-site');
    } finally {
      await upstream.stop();
    }
  });

  it('interrupted, carries on from the page it reached (page 1 again, for records added meanwhile)', async () => {
    let failing = false;
    const upstream = await startTestUpstream(older, (request) => (failing && request.target.endsWith('page=3') ? { status: 503 } : undefined));
    try {
      const out = path.join(temp.path, 'incremental-interrupted');
      await sync(fast(out, upstream.url));
      await upstream.serve(full);
      failing = true;
      await expect(sync(fast(out, upstream.url, { maxTries: 1 }))).rejects.toThrow('page=3 failed 1 times');
      failing = false;
      const before = upstream.log.length;
      const summary = await sync(fast(out, upstream.url));
      expect(summary).toMatchObject({ records: 1000, added: 100, pagesResumed: 1 });
      expect(clientRequests(upstream.log.slice(before)).map((request) => request.target)).toEqual([
        '/api/v1/clients/?ordering=-id',
        ...[3, 4, 5].map((page) => `/api/v1/clients/?ordering=-id&page=${page}`),
      ]);
      await expectRoundTrip(out, full, 'incremental-interrupted-site');
    } finally {
      await upstream.stop();
    }
  });

  it('says to run a full sync when records disappeared upstream, keeping the records it had', async () => {
    const upstream = await startTestUpstream(full);
    try {
      const out = path.join(temp.path, 'deleted-upstream');
      await sync(fast(out, upstream.url));
      const before = readFileSync(path.join(out, 'clients.ndjson'));
      await upstream.serve(shrunk);
      const error = await sync(fast(out, upstream.url)).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(SyncError);
      expect((error as Error).message).toBe('1,000 records saved but the upstream count is 999: records were removed upstream, which only a full sync (--full) sees');
      expect(readFileSync(path.join(out, 'clients.ndjson')).equals(before)).toBe(true);
      const fullSync = await sync(fast(out, upstream.url, { mode: 'full' }));
      expect(fullSync.records).toBe(999);
    } finally {
      await upstream.stop();
    }
  });
});

describe('npm run nightly', () => {
  it('syncs, builds, checks and prints the change for deploy; a night without change changes nothing', async () => {
    const upstream = await startTestUpstream(older);
    try {
      const data = path.join(temp.path, 'night-data');
      const site = path.join(temp.path, 'night-site');
      const args = ['nightly', '--upstream', upstream.url, '--data', data, '--out', site, '--base-url', CONFORMANCE_BASE_URL, '--rate', '60000'];
      const first = await runCliAsync(args);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/Change for deploy: [0-9,]+ file\(s\) to upload/);

      await upstream.serve(full);
      const second = await runCliAsync([...args, '--print-changes']);
      expect(second.status, second.stderr).toBe(0);
      expect(second.stdout).toMatch(/^\+ api\/v1\/clients\/[0-9]+\/index\.json$/m);
      // The site is the full set's, but for the change lists, which say what this night changed.
      expect(withoutChangeLists(builtFromRecords(site))).toEqual(withoutChangeLists(builtFromRecords(full)));

      const third = await runCliAsync(args);
      expect(third.stdout).toContain('Change for deploy: 0 file(s) to upload');
    } finally {
      await upstream.stop();
    }
  }, 90_000); // three nights, each a sync and a full build through the CLI
});

describe('rate limiter and Retry-After', () => {
  function fakeClock(): Clock & { time: number; starts: number[] } {
    const clock = {
      time: 0,
      starts: [] as number[],
      now: () => clock.time,
      sleep: async (ms: number) => {
        clock.time += Math.max(0, ms);
      },
    };
    return clock;
  }

  it('hands out slots a fixed interval apart, in call order', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(120, clock);
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) {
      await limiter.take();
      starts.push(clock.time);
    }
    expect(starts).toEqual([0, 500, 1000, 1500]);
  });

  it('holds every request until a pause asked for ends', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(60, clock);
    await limiter.take();
    limiter.holdUntil(30_000);
    await limiter.take();
    expect(clock.time).toBe(30_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

function withoutChangeLists(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([name]) => !/^_build\/(changed|removed)\.txt$/.test(name)));
}

/** The CLI in a child process without blocking the event loop (the upstream runs in this process). */
function runCliAsync(args: string[], env: Record<string, string> = {}) {
  return spawnAsync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: REPO_ROOT, env: { ...process.env, FORCE_COLOR: '0', ...env } });
}
