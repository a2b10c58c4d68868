import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { firstAnswerTable, measureFirstAnswers, type FirstAnswer } from './first-answers.ts';
import { firstRegistrantRequests } from './first-registrant-requests.ts';
import { firstRequests } from './first-requests.ts';
import type { InputClient } from './input-clients.ts';
import type { MemoryFigures, MemoryStage } from './memory-child.ts';
import { memorySequence } from './memory-sequence.ts';
import type { SearchMix } from './search-mix.ts';
import { measureStartupCost, startupLine, type StartupCost } from './startup-cost.ts';
import { compileBenchWorker } from './workerd-isolate.ts';

/**
 * Issue 39's measures of a built folder, each when its phase is named: `first`, the first answer of
 * each kind in fresh workerd isolates (first-answers.ts); `memory`, point 3's sequence through one
 * Worker and through the preview (memory-child.ts, in a process of its own).
 */
export interface ColdFigures {
  isolates: number;
  first?: FirstAnswer[];
  startup?: StartupCost;
  memory?: MemoryFigures;
}

export interface ColdOptions {
  built: string;
  clients: readonly InputClient[];
  mix: SearchMix;
  /** Where the bench's compiled children go (bench-data/children). */
  children: string;
  phases: ReadonlySet<string>;
  isolates: number;
  searches: { empty: number; matching: number };
  log: (text: string) => void;
}

export async function measureCold(options: ColdOptions): Promise<ColdFigures> {
  const script = compileBenchWorker(options.children);
  const figures: ColdFigures = { isolates: options.isolates };
  if (options.phases.has('first')) {
    const requests = [...firstRequests(options.clients), ...firstRegistrantRequests(options.clients)];
    options.log(`first answers: ${requests.length} kinds, ${options.isolates} fresh workerd isolates each, answering and reading only`);
    figures.first = await measureFirstAnswers({ built: options.built, script, requests, isolates: options.isolates, log: options.log });
    figures.startup = await measureStartupCost({ built: options.built, warmed: script, cold: compileBenchWorker(options.children, { warmUp: false }), isolates: options.isolates });
    options.log(startupLine(figures.startup));
  }
  if (options.phases.has('memory')) {
    const sequenceFile = path.join(options.children, 'memory-sequence.json');
    const sequence = memorySequence(options.clients, options.mix, options.searches);
    writeFileSync(sequenceFile, JSON.stringify(sequence));
    options.log(`memory: ${sequence.warmUp.length + sequence.empty.length + sequence.matching.length} requests through one Worker, then through the preview`);
    const args = ['--experimental-websocket', '--import', 'tsx', 'scripts/bench/memory-child.ts', options.built, sequenceFile, script, path.resolve('lib/cli.js')];
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
    if (result.status !== 0) throw new Error(`scripts/bench/memory-child.ts failed (${result.status})`);
    figures.memory = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as MemoryFigures;
  }
  return figures;
}

const mib = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / 2 ** 20).toFixed(1));
const seconds = (stage: MemoryStage) => `${stage.seconds.toFixed(0)} s${stage.failed > 0 ? `, ${stage.failed} not 200 (the first: \`${stage.firstFailure}\`)` : ''}`;
/** What a process or isolate holds: its V8 heap in use and its ArrayBuffers; as found, or kept (after a full collection). */
const found = (stage: MemoryStage) => (stage.heapUsed ?? Number.NaN) + (stage.buffers ?? 0);
const kept = (stage: MemoryStage) => (stage.kept === undefined ? Number.NaN : stage.kept.heapUsed + stage.kept.buffers);
const both = (stage: MemoryStage) => `${mib(kept(stage))} (heap ${mib(stage.kept?.heapUsed)}, ArrayBuffers ${mib(stage.kept?.buffers)}); as found ${mib(found(stage))}`;

/** The report's part for these measures: the first-answer table and the memory table, with issue 39's targets. */
export function coldSection(figures: ColdFigures): string[] {
  const lines = figures.first === undefined ? [] : firstAnswerTable(figures.first, figures.isolates);
  if (figures.startup !== undefined) lines.push(startupLine(figures.startup), '');
  if (figures.memory !== undefined) {
    const { workerd, preview } = figures.memory;
    const row = (worker: MemoryStage, node: MemoryStage) =>
      `| ${worker.stage} | ${seconds(worker)} | ${both(worker)} | ${mib(worker.rss)} | ${seconds(node)} | ${both(node)} | ${mib(node.rss)}, ${mib(node.kept?.rss)} |`;
    const last = kept(workerd.at(-1)!);
    const emptyGrowth = kept(workerd[2]!) - kept(workerd[1]!);
    const previewGrowth = kept(preview.at(-1)!) - kept(preview[1]!);
    lines.push(
      "Memory through issue 39 point 3's sequence (scripts/bench/memory-child.ts; requests 4 at a time, in the order of the rows): one Worker in a fresh workerd process, then the preview (`lda-mirror preview`, answering by default, with `--inspect`). After each stage, what is kept: the V8 heap in use plus the ArrayBuffers (the bundle files read live there) after a full collection forced through the inspector (`HeapProfiler.collectGarbage`; the Worker's from `Runtime.getHeapUsage`, the preview's from `process.memoryUsage()`), and the same as found before it (what the collector had not yet freed included); the workerd process's RSS (miniflare's own workers too) and the preview's RSS before and after the collection. Targets: the isolate keeps <= 64 MiB after the sequence, the searches matching nothing add <= 4 MiB; the preview stays flat.",
      '',
      '| after | Worker: time | isolate kept, MiB | workerd RSS, MiB | preview: time | preview kept, MiB | preview RSS, MiB (before, after the collection) |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...workerd.map((stage, i) => row(stage, preview[i]!)),
      '',
      `The isolate keeps ${mib(last)} MiB after the sequence (target <= 64 MiB: ${last <= 64 * 2 ** 20 ? 'met' : 'missed'}); the searches matching nothing added ${mib(emptyGrowth)} MiB to what it keeps (target <= 4 MiB: ${emptyGrowth <= 4 * 2 ** 20 ? 'met' : 'missed'}). The preview keeps ${mib(previewGrowth)} MiB more after the sequence than after the warm-up.`,
      '',
    );
  }
  return lines;
}
