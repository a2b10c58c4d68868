import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { sync } from '../../src/sync/sync.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { FAULT_KINDS, MAINTENANCE_PAGE, startFaultyUpstream } from '../support/faulty-upstream.ts';
import { builtFromRecords } from '../support/folder-snapshot.ts';
import { spawnAsync } from '../support/spawn-async.ts';
import { startTestUpstream } from '../support/test-upstream.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * npm run sync, as a child process, through an upstream that fails the way real ones do behind their
 * gateways: statuses, resets, stalls, bodies cut short, and 200s that are not a page of the list. The
 * sync must ride them out with its retries, or fail naming what it got and resume from its pages.
 */
const temp = tempFolder('mirror-sync-faults-');
const PAGES = 120; // 3,000 clients, 25 a page
const REGISTRANT_PAGES = 16; // their 384 registrants, walked after them (contract section 10)
let original: string; // the filters-3k records, built
let cleanRecords: Buffer; // what a sync through a healthy upstream saves

/** Small waits, so that every fault costs little: a stall costs the timeout (1 s), a 429 its Retry-After (1 s). */
const SYNC_ARGS = ['--full', '--rate', '60000', '--backoff', '50', '--timeout', '1'];

beforeAll(async () => {
  original = await buildFrom(path.join(setFolder('filters-3k'), 'input.ndjson'), 'original');
  const healthy = await startTestUpstream(original);
  try {
    const out = path.join(temp.path, 'clean');
    const result = await syncCli(['--upstream', healthy.url, '--out', out, ...SYNC_ARGS]);
    expect(result.status, result.stderr).toBe(0);
    expect(healthy.log).toHaveLength(PAGES + REGISTRANT_PAGES);
    cleanRecords = readFileSync(path.join(out, 'clients.ndjson'));
  } finally {
    await healthy.stop();
  }
}, 120_000);
afterAll(() => temp.remove());

describe('a sync through an upstream that fails one answer in five', () => {
  it('finishes in one run with the same records as a clean sync, and builds the same site', async () => {
    const upstream = await startFaultyUpstream(original, 20261123);
    try {
      const out = path.join(temp.path, 'faulty');
      const started = Date.now();
      const result = await syncCli(['--upstream', upstream.url, '--out', out, ...SYNC_ARGS]);
      const seconds = (Date.now() - started) / 1000;
      expect(result.status, result.stderr).toBe(0);

      // Every kind of fault was met, one answer in five, and each cost exactly one retry.
      const kinds = new Set(upstream.injected.map((fault) => fault.kind));
      expect([...kinds].sort()).toEqual([...FAULT_KINDS].sort());
      expect(upstream.injected.length).toBeGreaterThanOrEqual(Math.floor(upstream.log.length / 5));
      expect(upstream.injected.length).toBeLessThanOrEqual(Math.ceil(upstream.log.length / 5));
      const requests = /requests +([0-9,]+) \(([0-9,]+) retried\)/.exec(result.stdout);
      expect(requests?.slice(1).map((n) => Number(n.replace(/,/g, '')))).toEqual([upstream.log.length, upstream.injected.length]);
      expect(result.stderr.match(/^sync: .*; try [0-9]+ in /gm)).toHaveLength(upstream.injected.length);
      expect(result.stderr).toContain('HTTP 200 but not a page of the list (not JSON): "<!DOCTYPE html> <html> <head><title>Down for maintenance');
      console.log(
        `faulty 3,000-record sync: ${upstream.log.length} requests, ${upstream.injected.length} faults injected, ` +
          `${upstream.injected.length} retries, ${seconds.toFixed(1)} s`,
      );

      expect(readdirSync(out)).toEqual(['clients.ndjson', 'registrants.ndjson']);
      expect(readFileSync(path.join(out, 'clients.ndjson')).equals(cleanRecords)).toBe(true);
      const rebuilt = builtFromRecords(await buildFrom(out, 'faulty-site'));
      expect(rebuilt).toEqual(builtFromRecords(await buildFrom(path.join(temp.path, 'clean'), 'clean-site')));
      expect(rebuilt).toEqual(builtFromRecords(original));
    } finally {
      await upstream.stop();
    }
  }, 120_000);
});

describe('a 200 that is not a page of the list', () => {
  // Each body, and what a retry says of it after "HTTP 200 but not a page of the list".
  const notPages: [string, string][] = [
    ['', '(not JSON): (an empty body)'],
    ['\x00\x01\x1b]0;title\x07\r\nPK\x03\x04', '(not JSON): "\\u0000\\u0001\\u001b]0;title\\u0007 PK\\u0003\\u0004" (18 characters)'],
    ['[]', '(JSON, but not an object): "[]" (2 characters)'],
    ['{"count":"3000","next":null,"previous":null,"results":[]}', '(no integer count): "{"count":"3000","next":null,"previous":null,"results":[]}" (57 characters)'],
    ['{"count":3000,"next":null,"previous":null,"results":{}}', '(no results array): "{"count":3000,"next":null,"previous":null,"results":{}}" (55 characters)'],
    ['{"count":3000,"previous":null,"results":[]}', '(next is neither a URL nor null): "{"count":3000,"previous":null,"results":[]}" (43 characters)'],
    ['{"count":3000,"next":null,"previous":7,"results":[]}', '(previous is neither a URL nor null): "{"count":3000,"next":null,"previous":7,"results":[]}" (52 characters)'],
  ];

  it('is retried like a 5xx, each retry naming the request, what is wrong and the first bytes', async () => {
    const upstream = await startTestUpstream(original, (request) => {
      const body = notPages[request.number - 1]?.[0];
      return body === undefined ? undefined : { status: 200, body };
    });
    try {
      const retries: string[] = [];
      const summary = await sync({
        upstream: upstream.url,
        out: path.join(temp.path, 'shapes'),
        rate: 60_000,
        concurrency: 2,
        mode: 'full',
        maxTries: notPages.length + 1,
        backoffMs: 1,
        timeoutMs: 10_000,
        onRetry: (event) => retries.push(`${event.url}: ${event.reason}`),
      });
      expect(summary).toMatchObject({ records: 3000, retries: notPages.length, requests: PAGES + REGISTRANT_PAGES + notPages.length });
      expect(retries).toEqual(notPages.map(([, problem]) => `${upstream.url}/api/v1/clients/: HTTP 200 but not a page of the list ${problem}`));
    } finally {
      await upstream.stop();
    }
  });
});

describe('an upstream that answers a page with HTML and status 200, every time', () => {
  it('fails after --max-tries naming the request and the first bytes; the next run resumes from the saved pages', async () => {
    // An escape sequence in the page: it must reach the terminal as text, not clear the screen.
    const page = MAINTENANCE_PAGE.replace('<body>', '<body>\x1b[2J');
    let broken = true;
    const upstream = await startTestUpstream(original, (request) =>
      broken && request.target === '/api/v1/clients/?page=17' ? { status: 200, headers: { 'content-type': 'text/html' }, body: page } : undefined,
    );
    try {
      const out = path.join(temp.path, 'maintenance');
      const args = ['--upstream', upstream.url, '--out', out, ...SYNC_ARGS, '--max-tries', '3', '--concurrency', '1'];
      const failed = await syncCli(args);
      expect(failed.status).toBe(1);
      const firstBytes = '"<!DOCTYPE html> <html> <head><title>Down for maintenance</title></head> <body>\\u001b[2J <h1>';
      expect(failed.stderr).toContain(
        `sync failed: ${upstream.url}/api/v1/clients/?page=17 failed 3 times; the last answer: HTTP 200 but not a page of the list (not JSON): ${firstBytes}`,
      );
      expect(failed.stderr.match(/^sync: .*\?page=17: HTTP 200 but not a page of the list \(not JSON\): "<!DOCTYPE html>.*; try [23] in /gm)).toHaveLength(2);
      expect(failed.stderr).not.toContain('\x1b');
      // Pages 1 to 16 once, page 17 three times, and nothing started after it failed for good.
      const targets = upstream.log.map((request) => request.target);
      expect(targets).toEqual([...pageTargets(1, 16), ...Array(3).fill('/api/v1/clients/?page=17')]);
      expect(existsSync(path.join(out, 'clients.ndjson'))).toBe(false);

      broken = false;
      const before = upstream.log.length;
      const resumed = await syncCli(args);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`${PAGES - 16 + 1} fetched, 15 kept from an interrupted run`);
      // Page 1 again (for the count), then only the pages not saved: none of 2 to 16.
      const resumedTargets = upstream.log.slice(before).map((request) => request.target);
      expect(resumedTargets.filter((target) => target.startsWith('/api/v1/clients/'))).toEqual([...pageTargets(1, 1), ...pageTargets(17, PAGES)]);
      expect(resumedTargets.filter((target) => target.startsWith('/api/v1/registrants/'))).toHaveLength(REGISTRANT_PAGES);
      expect(readdirSync(out)).toEqual(['clients.ndjson', 'registrants.ndjson']);
      expect(readFileSync(path.join(out, 'clients.ndjson')).equals(cleanRecords)).toBe(true);
    } finally {
      await upstream.stop();
    }
  }, 60_000);
});

async function buildFrom(input: string, name: string): Promise<string> {
  const out = path.join(temp.path, name);
  await build(resolveBuildOptions({ input: [input], out, baseUrl: CONFORMANCE_BASE_URL }));
  return out;
}

function pageTargets(first: number, last: number): string[] {
  const targets: string[] = [];
  for (let page = first; page <= last; page++) targets.push(page === 1 ? '/api/v1/clients/' : `/api/v1/clients/?page=${page}`);
  return targets;
}

/** npm run sync in a child process, without blocking the upstream that runs in this one. */
function syncCli(args: string[]) {
  return spawnAsync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sync', ...args], { cwd: REPO_ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
}
