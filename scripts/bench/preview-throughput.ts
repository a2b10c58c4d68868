/**
 * The preview's throughput on one core, beside nginx's on the same core for the same requests
 * (issue 13: at least 5,000 list requests/s), and the answerer's on searches (issue 31: a search
 * costs at most twice a file). Each server is pinned to one core and the load (autocannon,
 * scripts/bench/load-child.ts) to the other, so that neither steals the other's time on a two-core
 * machine. nginx runs the configuration the project emits for the folder, one worker.
 *
 * The measures, each run: the preview as it answers by default (the answerer, contract section 9)
 * on the search mix when one is given (scripts/bench/search-mix.ts) and on random list pages; the
 * preview with `--static` (the files and the rewrite map, as a host without code) and nginx on the
 * same list pages.
 *
 *   npx tsx scripts/bench/preview-throughput.ts <built folder> [runs]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nginx } from '../../src/hosts/nginx/nginx.ts';
import { MAP_FILE, choiceStep, listRoute, type RewriteMap } from '../../src/plan/rewrite-map.ts';
import { freePort } from '../../test/support/real-servers.ts';
import { writeNginxConf } from '../lib/nginx-conf.ts';
import type { LoadFigures } from './load-child.ts';
import { median } from './median-interval.ts';
import { seededRandom } from './seeded-random.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOAD_CORE = '0';
const SERVER_CORE = '1';
const tsx = ['--import', 'tsx'];

export interface ThroughputOptions {
  runs: number;
  log?: (text: string) => void;
  /** The search mix's request targets; without them, the list pages alone are measured. */
  searchPaths?: string[];
}

/** Requests/s of each run, by measure. */
export interface ThroughputFigures {
  /** The preview as it answers by default, on the search mix (when one was given). */
  search?: number[];
  /** The preview as it answers by default, on the list pages. */
  preview: number[];
  /** The preview with `--static`, on the list pages. */
  previewStatic: number[];
  nginx: number[];
  /** The distinct list requests the load cycles through. */
  requests: number;
  /** The distinct requests of the search mix. */
  searchRequests?: number;
}

type Server = 'preview' | 'preview --static' | 'nginx';
type Measure = { key: 'search' | 'preview' | 'previewStatic' | 'nginx'; server: Server; paths: 'list' | 'search' };

const MEASURES: readonly Measure[] = [
  { key: 'search', server: 'preview', paths: 'search' },
  { key: 'preview', server: 'preview', paths: 'list' },
  { key: 'previewStatic', server: 'preview --static', paths: 'list' },
  { key: 'nginx', server: 'nginx', paths: 'list' },
];

export async function measurePreviewThroughput(dir: string, options: ThroughputOptions): Promise<ThroughputFigures> {
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new TypeError('Expected `runs` to be a number from 1 and up');
  if (os.availableParallelism() < 2) throw new Error('the throughput measure needs two cores: one for the server, one for the load');
  const log = options.log ?? (() => {});
  const folder = path.resolve(dir);
  const map = JSON.parse(readFileSync(path.join(folder, MAP_FILE), 'utf8')) as RewriteMap;
  const paths = listRequestPaths(map, 2000);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'lda-throughput-'));
  try {
    const pathsFiles = { list: path.join(scratch, 'list.json'), search: path.join(scratch, 'search.json') };
    writeFileSync(pathsFiles.list, JSON.stringify(paths));
    if (options.searchPaths !== undefined) writeFileSync(pathsFiles.search, JSON.stringify(options.searchPaths));
    const figures: ThroughputFigures = { preview: [], previewStatic: [], nginx: [], requests: paths.length };
    if (options.searchPaths !== undefined) Object.assign(figures, { search: [], searchRequests: options.searchPaths.length });
    const measures = options.searchPaths === undefined ? MEASURES.filter((measure) => measure.paths === 'list') : MEASURES;
    const measure = async ({ key, server: name, paths: which }: Measure) => {
      const port = await freePort();
      const server = name === 'nginx' ? startNginx(map, folder, scratch, port) : startPreview(folder, port, name === 'preview --static');
      try {
        await waitForPort(port, server);
        const rate = await load(`http://127.0.0.1:${port}`, pathsFiles[which]);
        figures[key]!.push(rate);
        log(`${name}, ${which === 'list' ? 'list pages' : 'search mix'}: ${rate.toFixed(0)} requests/s`);
      } finally {
        await stop(server);
      }
    };
    for (let run = 1; run <= options.runs; run++) {
      log(`throughput, run ${run} of ${options.runs}`);
      // Alternate the order: on this kind of machine the second of two runs is often faster.
      for (const each of run % 2 === 1 ? measures : [...measures].reverse()) await measure(each);
    }
    return figures;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Random pages of the unfiltered list, seeded: every format, ordering and page equally likely, the
 * query in the order a script writes it. The same picks as scripts/bench.ts.
 */
export function listRequestPaths(map: RewriteMap, count: number): string[] {
  const list = listRoute(map);
  const formats = Object.keys(choiceStep(list, 'format')?.choices ?? { '': '' });
  const orderings = Object.keys(choiceStep(list, 'ordering')?.choices ?? { '': '' });
  const random = seededRandom(42);
  return Array.from({ length: count }, () => {
    const query = new URLSearchParams();
    const format = formats[random(formats.length)]!;
    const ordering = orderings[random(orderings.length)]!;
    if (format) query.set('format', format);
    if (ordering) query.set('ordering', ordering);
    query.set('page', String(1 + random(list.page.last)));
    return `${list.path}?${query}`;
  });
}

/** The preview as the installed command runs it: compiled (lib/, which `npm run bench` compiles first). */
function startPreview(dir: string, port: number, asStatic: boolean): ChildProcess {
  const args = [path.join(ROOT, 'lib/cli.js'), 'preview', '--dir', dir, '--port', String(port), ...(asStatic ? ['--static'] : [])];
  return pinned(SERVER_CORE, process.execPath, args);
}

/**
 * nginx with the site file `lda-mirror emit nginx` writes (its adapter, without the build's modules), included in an nginx.conf like Debian's
 * (sendfile, mime.types) but with one worker and no access log (the preview writes none either).
 */
function startNginx(map: RewriteMap, dir: string, scratch: string, port: number): ChildProcess {
  const site = path.join(scratch, 'lda-mirror.conf');
  writeFileSync(site, nginx.emit({ map, dir, listen: { address: '127.0.0.1', port } })[0]!.text);
  return pinned(SERVER_CORE, 'nginx', writeNginxConf(scratch, site, ['sendfile on;', 'tcp_nopush on;']));
}

/** The load on the other core; its requests/s, after checking that every answer was a 200. */
async function load(url: string, pathsFile: string): Promise<number> {
  const child = pinned(LOAD_CORE, process.execPath, [...tsx, path.join(ROOT, 'scripts/bench/load-child.ts'), url, pathsFile], 'pipe');
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  const figures = JSON.parse(output.trim().split('\n').at(-1)!) as LoadFigures;
  const others = Object.entries(figures.statuses).filter(([status]) => status !== '200');
  if (others.length > 0 || figures.errors > 0) {
    const statuses = others.map(([status, count]) => `${count} answers ${status}`);
    throw new Error(`${url}: not every answer was a 200: ${[...statuses, `${figures.errors} errors and timeouts`].join(', ')}`);
  }
  return figures.requestsPerSecond;
}

function pinned(core: string, command: string, args: string[], stdout: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
  return spawn('taskset', ['-c', core, command, ...args], { cwd: ROOT, stdio: ['ignore', stdout, 'inherit'] });
}

export async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not listen on ${port} within 30 s`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The report's rows: each measure's requests/s, and the ratios issue 31 sets a target for (same run, same load). */
export function throughputRows(figures: ThroughputFigures): [string, string][] {
  const each = (numbers: number[]) => numbers.map((n) => n.toFixed(0)).join(', ');
  const rate = (numbers: number[]) => `${median(numbers).toFixed(0)} requests/s (runs: ${each(numbers)})`;
  const ratios = (top: number[], bottom: number[]) => `${(median(top) / median(bottom)).toFixed(2)} (runs: ${top.map((n, i) => (n / bottom[i]!).toFixed(2)).join(', ')})`;
  const list = `${figures.requests.toLocaleString('en-US')} random list pages (every format, ordering and page alike)`;
  const rows: [string, string][] = [];
  const { search, searchRequests } = figures;
  if (search !== undefined) {
    rows.push([
      `preview as it answers by default (the answerer, result cache on), the ${searchRequests!.toLocaleString('en-US')} requests of the search mix (scripts/bench/search-mix.ts), 50 connections, server pinned to one core, autocannon to the other`,
      rate(search),
    ]);
  }
  rows.push(
    [`preview as it answers by default (the answerer), ${list}, same load`, rate(figures.preview)],
    [`preview --static (the files and the rewrite map, as a host without code), the same list pages, same load`, rate(figures.previewStatic)],
  );
  if (search !== undefined) {
    rows.push(
      ['search mix / preview --static on list pages, requests/s', `${ratios(search, figures.previewStatic)} (target >= 0.5: ${median(search) / median(figures.previewStatic) >= 0.5 ? 'met' : 'missed'})`],
      ['search mix / preview as it answers by default on list pages, requests/s', ratios(search, figures.preview)],
    );
  }
  rows.push([
    'nginx (lda-mirror emit nginx, one worker), the same list pages, same core: beside preview --static, the preview serving files (what the preview row measured before issue 31)',
    `${rate(figures.nginx)}; preview --static / nginx ${ratios(figures.previewStatic, figures.nginx)}`,
  ]);
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [dir, runsText = '3'] = process.argv.slice(2);
  if (dir === undefined || !/^[1-9][0-9]*$/.test(runsText)) {
    console.error('Usage: npx tsx scripts/bench/preview-throughput.ts <built folder> [runs (default 3)]');
    process.exit(2);
  }
  const figures = await measurePreviewThroughput(dir, { runs: Number(runsText), log: (text) => console.error(`[throughput] ${text}`) });
  const each = (numbers: number[]) => numbers.map((n) => n.toFixed(0)).join(', ');
  console.log(`${figures.requests} random list requests, 50 connections, server on core ${SERVER_CORE}, load on core ${LOAD_CORE}`);
  console.log(`preview:          ${median(figures.preview).toFixed(0)} requests/s (median; runs ${each(figures.preview)})`);
  console.log(`preview --static: ${median(figures.previewStatic).toFixed(0)} requests/s (median; runs ${each(figures.previewStatic)})`);
  console.log(`nginx:            ${median(figures.nginx).toFixed(0)} requests/s (median; runs ${each(figures.nginx)})`);
}
