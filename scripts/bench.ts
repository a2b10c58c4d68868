/**
 * `npm run bench`: how fast the mirror builds and serves, against the floor of this machine.
 * Generates N records (deterministic, into bench-data/, never committed), then for each run: a full
 * build (beside another revision's build of the same input, with --baseline), the floor (the same
 * tree written from one buffer), a rebuild with no change and a rebuild after a nightly-sized change;
 * then the answerer's CPU time per request on a mix of real programs' searches, and the preview's
 * throughput on one core on that mix and on list pages, beside nginx's. Prints the medians with the
 * machine, the date and the command (and writes them to a file with --report); BENCHMARKS.md's tables
 * are updated from them by hand, one row a figure.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { DEFAULT_FILTERS, wholeNumber } from '../src/config.ts';
import type { BuildSummary } from '../src/build.ts';
import { answererRows, measureAnswerer, type AnswererMeasure } from './bench/answerer-measure.ts';
import { coldSection, measureCold, type ColdFigures } from './bench/cold-measure.ts';
import { prepareBaseline } from './bench/baseline-program.ts';
import { bundleRow, measureBundleFiles, type BundleFiles } from './bench/bundle-files.ts';
import type { ChildStats } from './bench/child-stats.ts';
import { readInputClients } from './bench/input-clients.ts';
import { median } from './bench/median-interval.ts';
import { writeNightlyChange } from './bench/nightly-change.ts';
import { measureNights, nightsRows, type Night } from './bench/nights.ts';
import { measurePreviewThroughput, throughputRows, type ThroughputFigures } from './bench/preview-throughput.ts';
import { RecentDeletions } from './bench/recent-deletions.ts';
import { searchMix, type SearchMix } from './bench/search-mix.ts';

const REGISTRY_SIZE = 134_719;
const { values } = parseArgs({
  options: {
    records: { type: 'string' },
    scale: { type: 'boolean' },
    runs: { type: 'string' },
    formats: { type: 'string' },
    filters: { type: 'string' },
    'skip-preview': { type: 'boolean' },
    'skip-answerer': { type: 'boolean' },
    baseline: { type: 'string' },
    phases: { type: 'string' },
    built: { type: 'string' },
    isolates: { type: 'string' },
    nights: { type: 'string' },
    'memory-searches': { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench -- [--records N] [--scale] [--runs R] [--formats list] [--baseline rev] [--skip-preview] [--skip-answerer] [--report file]

  --records N      records to generate and build (default ${REGISTRY_SIZE}, the registry today)
  --scale          ten times the registry (${REGISTRY_SIZE * 10}) with --formats api, one run
  --runs R         runs of each measure; medians are reported (default 3, 1 with --scale)
  --formats list   formats to build (default none,api,json; api with --scale)
  --filters list   filters to build, or none (default ${DEFAULT_FILTERS})
  --baseline rev   also build with the program of git revision rev (a worktree of it in bench-data/,
                   compiled), alternating with this one's full build in each run (default: none)
  --skip-preview   leave out the preview throughput measure
  --skip-answerer  leave out the answerer's CPU time per request, reads and hostile requests
  --phases list    which measures to run, from build,floor,unchanged,nightly (default: all of them),
                   and first,memory (issue 39: first answers in fresh workerd isolates; one isolate's
                   and the preview's memory through point 3's sequence; not run unless named),
                   and nights (a full build, then --nights rebuilds, each night's change read with
                   those before it: what each night uploads of the query bundle; not run unless named)
  --built folder   measure this built folder (of the same --records input) instead of building:
                   only the answerer, preview, first and memory measures run
  --isolates N     fresh isolates per kind of first answer, each side (default 5)
  --nights N       nights in the nights phase (default 8)
  --memory-searches E,M  the memory sequence's unique searches matching nothing, and matching
                   (default 100000,20000)
  --report file    also write the report to this file (BENCHMARKS.md's tables are updated by hand)`);
  process.exit(0);
}

const records = values.scale ? REGISTRY_SIZE * 10 : wholeNumber('--records', values.records ?? String(REGISTRY_SIZE), 1);
const runs = wholeNumber('--runs', values.runs ?? (values.scale ? '1' : '3'), 1);
const formats = values.formats ?? (values.scale ? 'api' : 'none,api,json');
const filters = values.filters ?? DEFAULT_FILTERS;
const root = path.resolve('bench-data');
const baseInput = path.join(root, `input-${records}`);
const nightlyInput = path.join(root, `input-${records}-nightly`);
const tsx = ['--import', 'tsx'];
const phases = new Set((values.phases ?? 'build,floor,unchanged,nightly').split(','));
const built = values.built === undefined ? undefined : path.resolve(values.built);
if (built !== undefined) for (const phase of ['build', 'floor', 'unchanged', 'nightly', 'nights']) phases.delete(phase);

const log = (text: string) => console.error(`[bench] ${text}`);
const deletions = new RecentDeletions(root, log);

/**
 * Runs one timed child, on a rested file system (recent-deletions.ts): build and floor alike. `rested`
 * false for a child whose time is not reported (the nights: what each writes, not how fast).
 */
function runChild(script: string, args: string[], { rested = true } = {}): ChildStats {
  if (rested) deletions.settle();
  // The build child is plain JavaScript (compileBuildChild): its peak memory is the program's alone.
  const loader = script.endsWith('.mjs') ? [] : tsx;
  const result = spawnSync(process.execPath, [...loader, script, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`${script} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as ChildStats;
}

/**
 * The trees the runs write (`out-N`, `base-N` with --baseline, `floor-N`, `change-floor-N`, and a
 * rebuild's folders beside them). They stay until the bench ends, so that no measure starts right
 * after a deletion; when the disk has no room for another run's trees, those of earlier runs go, and
 * the next measure waits.
 */
const isRunTree = (entry: string) => /^\.?(out|base|floor|change-floor)(-\d+)?([.].*)?$/.test(entry) && !entry.includes('.trash-');

function removeRunTrees(why: string): void {
  const trees = readdirSync(root).filter(isRunTree);
  if (trees.length === 0) return;
  log(`removing ${trees.join(', ')} (${why})`);
  for (const tree of trees) rmSync(path.join(root, tree), { recursive: true, force: true });
  deletions.deleted();
}

/** At the end: the trees are renamed aside and deleted by a process of their own (minutes on this disk). */
function removeRunTreesInBackground(): void {
  const trees = readdirSync(root).filter(isRunTree);
  if (trees.length === 0) return;
  const trash = trees.map((tree) => path.join(root, `.${tree.replace(/^\./, '')}.trash-bench-${Date.now()}`));
  trees.forEach((tree, i) => renameSync(path.join(root, tree), trash[i]!));
  spawn('rm', ['-rf', ...trash], { detached: true, stdio: 'ignore' }).unref();
  log(`deleting ${trees.length} trees of this bench in the background (${path.relative('.', root)}/.*.trash-bench-*)`);
}

/** Room for one more run: its trees take about `perRun` bytes (twice the first build, and some). */
function makeRoomForRun(perRun: number): void {
  const { bavail, bsize } = statfsSync(root);
  if (bavail * bsize < perRun * 1.2) removeRunTrees('to make room for the next run');
}

/**
 * A child (scripts/bench/<name>.ts) as one JavaScript file that node runs without tsx, whose loader
 * would otherwise count in the build's peak memory (about 20 MB) and in the answerer's first request.
 * The children run the compiled program, lib/, which they are given.
 */
function compileChild(name: string): string {
  const file = path.join(root, 'children', `${name}.mjs`);
  buildSync({ entryPoints: [`scripts/bench/${name}.ts`], outfile: file, bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
  return file;
}

function prepareInputs(): void {
  const baseFile = path.join(baseInput, 'clients.ndjson');
  if (!existsSync(baseFile)) {
    log(`generating ${records.toLocaleString('en-US')} records`);
    mkdirSync(baseInput, { recursive: true });
    execFileSync(process.execPath, [...tsx, 'scripts/generate-sample.ts', '--records', String(records), '--seed', '1', '--out', baseFile], {
      stdio: 'inherit',
    });
  }
  rmSync(nightlyInput, { recursive: true, force: true });
  mkdirSync(nightlyInput, { recursive: true });
  linkSync(baseFile, path.join(nightlyInput, 'clients.ndjson'));
}

interface RunFigures {
  build: ChildStats;
  /** The query bundle of that full build. */
  bundle: BundleFiles;
  /** The --baseline revision's full build of the same input, into base-N. */
  baseline?: ChildStats;
  floor?: ChildStats;
  unchanged?: ChildStats;
  nightly?: ChildStats;
  /** The least a rebuild after the nightly change must do: its folders made, changed files written, the rest linked. */
  changeFloor?: ChildStats;
}

async function measureRun(run: number, out: string): Promise<RunFigures> {
  const fullBuild = () => {
    log(`run ${run}: full build`);
    const stats = runChild(buildChild, [program, baseInput, out, formats, filters]);
    log(`run ${run}: full build ${stats.wallSeconds.toFixed(1)} s, peak RSS ${stats.peakRssMb.toFixed(0)} MB`);
    return { stats, bundle: measureBundleFiles(out) };
  };
  const baselineBuild = () => {
    if (baseline === undefined) return undefined;
    log(`run ${run}: full build by the baseline, ${baseline.commit}`);
    const stats = runChild(buildChild, [baseline.program, baseInput, path.join(root, `base-${run}`), formats, filters]);
    log(`run ${run}: baseline's full build ${stats.wallSeconds.toFixed(1)} s, peak RSS ${stats.peakRssMb.toFixed(0)} MB`);
    return stats;
  };
  // A pair per run, each first in turn: on this disk the second of two builds is often the faster.
  let baselineStats = run % 2 === 0 ? baselineBuild() : undefined;
  const { stats: build, bundle } = fullBuild();
  if (run % 2 === 1) baselineStats = baselineBuild();
  const figures: RunFigures = { build, bundle, baseline: baselineStats };
  if (phases.has('floor')) {
    // The build's folder, not the link: the floor walks real files.
    figures.floor = runChild('scripts/bench/floor-child.ts', [out, path.join(root, `floor-${run}`)]);
    log(`run ${run}: floor ${figures.floor.wallSeconds.toFixed(1)} s`);
  }
  if (phases.has('unchanged')) {
    figures.unchanged = runChild(buildChild, [program, baseInput, out, formats, filters]);
    log(`run ${run}: rebuild, no change ${figures.unchanged.wallSeconds.toFixed(1)} s`);
  }
  if (phases.has('nightly')) {
    await writeNightlyChange(path.join(baseInput, 'clients.ndjson'), path.join(nightlyInput, 'nightly.ndjson'));
    figures.nightly = runChild(buildChild, [program, nightlyInput, out, formats, filters]);
    log(`run ${run}: rebuild, nightly change ${figures.nightly.wallSeconds.toFixed(1)} s`);
    figures.changeFloor = runChild('scripts/bench/change-floor-child.ts', [out, path.join(root, `change-floor-${run}`)]);
    log(`run ${run}: floor of the nightly change ${figures.changeFloor.wallSeconds.toFixed(1)} s`);
  }
  return figures;
}

/** Issue 31: the default build with the query bundle at most 1.1x the build before it, peak RSS at most 300 MB. */
function baselineRows(figures: RunFigures[], commit: string): [string, string][] {
  const pair = (r: RunFigures) => `${r.build.wallSeconds.toFixed(1)} / ${r.baseline!.wallSeconds.toFixed(1)} s = ${(r.build.wallSeconds / r.baseline!.wallSeconds).toFixed(2)}`;
  const rss = (pick: (r: RunFigures) => ChildStats) => figures.map((r) => pick(r).peakRssMb.toFixed(0)).join(', ');
  const worst = Math.max(...figures.map((r) => r.build.wallSeconds / r.baseline!.wallSeconds));
  const peak = Math.max(...figures.map((r) => r.build.peakRssMb));
  return [
    [
      `full build, this program / the baseline ${commit}'s (--baseline: its worktree in bench-data/, compiled, run by the same build child), same input and options, alternating (this program first in odd runs), wall, each run`,
      `${figures.map(pair).join('; ')} (target <= 1.1x: ${worst <= 1.1 ? 'met' : 'missed'})`,
    ],
    [
      `full build, peak RSS each run: this program; the baseline ${commit}`,
      `${rss((r) => r.build)} MB; ${rss((r) => r.baseline!)} MB (target <= 300 MB: ${peak <= 300 ? 'met' : 'missed'})`,
    ],
  ];
}

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const fs = spawnSync('findmnt', ['-no', 'FSTYPE,OPTIONS', '-T', root], { encoding: 'utf8' }).stdout.trim() || 'unknown';
  return `${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}, file system ${fs}`;
}

function report(figures: RunFigures[], cold: ColdFigures | undefined, previewFigures: ThroughputFigures | undefined, answerer: AnswererMeasure | undefined, mix: SearchMix | undefined): string {
  if (figures.length === 0) return builtReport(cold, previewFigures, answerer, mix);
  const m = (pick: (run: RunFigures) => number) => median(figures.map(pick));
  const summaryOf = (stats: ChildStats | undefined) => stats!.result as BuildSummary;
  const build = m((r) => r.build.wallSeconds);
  const built = summaryOf(figures[0]!.build);
  const mb = built.bytes / 1e6;
  const rows = [
    ['full build (check included), wall', `${build.toFixed(1)} s`],
    ['full build, CPU (all threads)', `${m((r) => r.build.cpuSeconds).toFixed(1)} s`],
    ['full build, peak RSS', `${m((r) => r.build.peakRssMb).toFixed(0)} MB`],
    ['files, bytes', `${built.files.toLocaleString('en-US')}, ${mb.toFixed(0)} MB`],
    ['records/s, MB/s', `${(records / build).toFixed(0)}, ${(mb / build).toFixed(1)}`],
    bundleRow(figures[0]!.bundle),
  ];
  if (baseline !== undefined) rows.push(...baselineRows(figures, baseline.commit));
  if (phases.has('floor')) {
    // Build and floor alternate in one run; the disk is noisy, so the best of each is compared.
    const best = (pick: (run: RunFigures) => number) => Math.min(...figures.map(pick));
    rows.push(
      ['floor (same tree, one buffer, writeFileSync, one thread), wall', `${m((r) => r.floor!.wallSeconds).toFixed(1)} s`],
      ['build, each run; floor, each run', `${figures.map((r) => r.build.wallSeconds.toFixed(1)).join(', ')} s; ${figures.map((r) => r.floor!.wallSeconds.toFixed(1)).join(', ')} s`],
      ['best build / best floor', `${best((r) => r.build.wallSeconds).toFixed(1)} / ${best((r) => r.floor!.wallSeconds).toFixed(1)} = ${(best((r) => r.build.wallSeconds) / best((r) => r.floor!.wallSeconds)).toFixed(2)}`],
    );
  }
  if (phases.has('unchanged')) {
    rows.push(
      ['rebuild, no change: wall, peak RSS', `${m((r) => r.unchanged!.wallSeconds).toFixed(1)} s, ${m((r) => r.unchanged!.peakRssMb).toFixed(0)} MB`],
      ['rebuild, no change: files written', `${m((r) => summaryOf(r.unchanged).written)} (${summaryOf(figures[0]!.unchanged).upToDate ? 'up to date: nothing built' : `${m((r) => summaryOf(r.unchanged).linked).toLocaleString('en-US')} linked`})`],
      ['rebuild, no change / full build (same run)', figures.map((r) => (r.unchanged!.wallSeconds / r.build.wallSeconds).toFixed(3)).join(', ')],
    );
  }
  if (phases.has('nightly')) {
    rows.push(
      ['rebuild, nightly change: wall, peak RSS', `${m((r) => r.nightly!.wallSeconds).toFixed(1)} s, ${m((r) => r.nightly!.peakRssMb).toFixed(0)} MB`],
      ['rebuild, nightly change: files written, removed', `${m((r) => summaryOf(r.nightly).written).toLocaleString('en-US')}, ${m((r) => summaryOf(r.nightly).removed)}`],
      // Every page of a list that gained a client changes (its count, and the clients after it move): more of the bytes than of the files.
      ['rebuild, nightly change: MB written, share of the site\'s bytes', `${(m((r) => summaryOf(r.nightly).bytesWritten) / 1e6).toFixed(0)} MB, ${(m((r) => summaryOf(r.nightly).bytesWritten / summaryOf(r.nightly).bytes) * 100).toFixed(0)}%`],
      // What a deploy to a host that runs the answerer uploads (the Worker's assets: the query bundle alone); target <= 5 % (issue 32).
      [
        'rebuild, nightly change: query bundle (the Cloudflare Worker\'s assets) files and MB written, share of its bytes (target <= 5%)',
        `${m((r) => summaryOf(r.nightly).bundle.written)} of ${m((r) => summaryOf(r.nightly).bundle.files).toLocaleString('en-US')} files, ${(m((r) => summaryOf(r.nightly).bundle.bytesWritten) / 1e6).toFixed(1)} of ${(m((r) => summaryOf(r.nightly).bundle.bytes) / 1e6).toFixed(1)} MB, ${(m((r) => summaryOf(r.nightly).bundle.bytesWritten / summaryOf(r.nightly).bundle.bytes) * 100).toFixed(1)}%`,
      ],
      ['rebuild, nightly change / full build (same run)', figures.map((r) => (r.nightly!.wallSeconds / r.build.wallSeconds).toFixed(2)).join(', ')],
      ['floor of the nightly change (folders made, changed files written, the rest linked), wall', figures.map((r) => `${r.changeFloor!.wallSeconds.toFixed(1)} s`).join(', ')],
      ['nightly change floor / full build (same run)', figures.map((r) => (r.changeFloor!.wallSeconds / r.build.wallSeconds).toFixed(2)).join(', ')],
    );
  }
  if (nights !== undefined) rows.push(...nightsRows(nights));
  if (answerer && mix) rows.push(...answererRows(answerer, mix));
  if (previewFigures) rows.push(...throughputRows(previewFigures));
  const seconds = (stats: ChildStats | undefined) => (stats ? `${stats.wallSeconds.toFixed(1)} s` : 'not run');
  const each = figures
    .map((r, i) => `run ${i + 1}: build ${seconds(r.build)}, floor ${seconds(r.floor)}, no change ${seconds(r.unchanged)}, nightly ${seconds(r.nightly)}`)
    .join('; ');
  return reportSection(`formats ${formats}, filters ${filters}`, [`- date: ${new Date().toISOString().slice(0, 10)}`, `- medians of ${figures.length} run(s); ${each}`], rows, cold);
}

/** A report's section: its title, its lines of context, the table of measures, and issue 39's tables when measured. */
function reportSection(title: string, context: string[], rows: string[][], cold: ColdFigures | undefined): string {
  return [
    `## ${records.toLocaleString('en-US')} records, ${title}`,
    '',
    context[0]!,
    `- machine: ${machine()}`,
    `- command: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\``,
    ...context.slice(1),
    '',
    '| measure | value |',
    '| --- | --- |',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    '',
    ...(cold === undefined ? [] : coldSection(cold)),
  ].join('\n');
}

/** The report of a bench over a folder built before (--built): no build measure. */
function builtReport(cold: ColdFigures | undefined, previewFigures: ThroughputFigures | undefined, answerer: AnswererMeasure | undefined, mix: SearchMix | undefined): string {
  const rows: [string, string][] = [bundleRow(measureBundleFiles(built!))];
  if (answerer && mix) rows.push(...answererRows(answerer, mix));
  if (previewFigures) rows.push(...throughputRows(previewFigures));
  const program = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  return reportSection(`the folder built before (${path.relative('.', built!)})`, [`- date: ${new Date().toISOString().slice(0, 10)}, program ${program}`], rows, cold);
}

prepareInputs();
log('compiling the program the children run (lib/)');
execFileSync(process.execPath, [...tsx, 'scripts/compile.ts'], { stdio: 'inherit' });
const program = path.resolve('lib/index.js');
const buildChild = compileChild('build-child');
const baseline = values.baseline === undefined ? undefined : prepareBaseline(values.baseline, root, log);
if (built === undefined) {
  removeRunTrees('left by an earlier bench');
  // Whatever else deleted files on this disk lately (an earlier bench's background removal, a test) counts too.
  deletions.deleted();
}
const figures: RunFigures[] = [];
let out = built ?? '';
for (let run = 1; built === undefined && run <= runs; run++) {
  if (run > 1) makeRoomForRun((baseline === undefined ? 2.5 : 3.5) * (figures[0]!.build.result as BuildSummary).bytes);
  out = path.join(root, `out-${run}`);
  figures.push(await measureRun(run, out));
}
baseline?.remove();
let nights: Night[] | undefined;
if (phases.has('nights')) {
  nights = await measureNights({
    nights: wholeNumber('--nights', values.nights ?? '8', 1),
    baseFile: path.join(baseInput, 'clients.ndjson'),
    input: path.join(root, `input-${records}-nights`),
    out: path.join(root, 'out.nights'),
    build: (input, target) => runChild(buildChild, [program, input, target, formats, filters], { rested: false }),
    log,
  });
}
// The searches come from the input that the last build of out-N read.
const wantsMix = !values['skip-answerer'] || !values['skip-preview'] || phases.has('memory');
const mix = !wantsMix ? undefined : searchMix(await readInputClients(phases.has('nightly') ? nightlyInput : baseInput));
let answerer: AnswererMeasure | undefined;
if (mix !== undefined && !values['skip-answerer']) {
  deletions.quiet();
  const mixFile = path.join(root, 'children', 'search-mix.json');
  writeFileSync(mixFile, JSON.stringify(mix));
  log(`answerer: ${mix.requests.length} requests of the search mix, ${mix.heaviest.length} of the heaviest kind, ${mix.hostile.length} hostile`);
  answerer = measureAnswerer({ script: compileChild('answerer-child'), answerer: path.resolve('lib/answer/answerer.js'), built: out, mixFile });
}
let cold: ColdFigures | undefined;
if (phases.has('first') || phases.has('memory')) {
  deletions.quiet();
  const [empty, matching] = (values['memory-searches'] ?? '100000,20000').split(',').map((value) => wholeNumber('--memory-searches', value, 0));
  cold = await measureCold({
    built: out,
    clients: await readInputClients(phases.has('nightly') ? nightlyInput : baseInput),
    mix: mix!,
    children: path.join(root, 'children'),
    phases,
    isolates: wholeNumber('--isolates', values.isolates ?? '5', 1),
    searches: { empty: empty!, matching: matching! },
    log,
  });
}
if (!values['skip-preview']) deletions.quiet();
const previewFigures = values['skip-preview'] ? undefined : await measurePreviewThroughput(out, { runs, log, searchPaths: mix?.requests.map((request) => request.target) });
if (built === undefined) removeRunTreesInBackground();
const section = report(figures, cold, previewFigures, answerer, mix);
console.log(section);
if (values.report !== undefined) {
  writeFileSync(values.report, `${section}\n`);
  log(`written to ${values.report}`);
}
