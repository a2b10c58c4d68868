/**
 * Issue 39 point 3, in a process of its own (node --experimental-websocket, for workerd's
 * inspector): the memory sequence (memory-sequence.ts) sent to one Worker in a fresh workerd process
 * (workerd-isolate.ts), then to the preview (the compiled `lda-mirror preview`, answering by
 * default); after each stage, the Worker's V8 heap (the inspector's `Runtime.getHeapUsage`) and the
 * workerd process's RSS, and the preview process's RSS. Requests go 4 at a time (an isolate serves
 * concurrent requests too); every answer must be a 200.
 *
 *   node --experimental-websocket --import tsx memory-child.ts <built> <sequence.json> <bench-worker.mjs> <lib/cli.js>
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../../test/support/real-servers.ts';
import type { MemorySequence } from './memory-sequence.ts';
import { stop, waitForPort } from './preview-throughput.ts';
import { residentBytes, startWorkerdIsolate } from './workerd-isolate.ts';

export interface MemoryStage {
  stage: string;
  requests: number;
  seconds: number;
  /** Answers that were not a 200, and the first of them. */
  failed: number;
  firstFailure?: string;
  rss: number;
  heapUsed?: number;
  heapTotal?: number;
  /** The isolate's ArrayBuffers outside its V8 heap. */
  buffers?: number;
}

export interface MemoryFigures {
  workerd: MemoryStage[];
  preview: MemoryStage[];
}

const IN_FLIGHT = 4;
const [built, sequenceFile, script, cli] = process.argv.slice(2);
const sequence = JSON.parse(readFileSync(sequenceFile!, 'utf8')) as MemorySequence;
const stages: [string, string[]][] = [
  [`warm-up: ${sequence.warmUp.length.toLocaleString('en-US')} real programs' requests`, sequence.warmUp],
  [`then ${sequence.empty.length.toLocaleString('en-US')} unique searches matching nothing`, sequence.empty],
  [`then ${sequence.matching.length.toLocaleString('en-US')} unique searches that match`, sequence.matching],
];

/** The targets sent `IN_FLIGHT` at a time; the answers that were not a 200. */
async function send(targets: string[], get: (target: string) => Promise<number>): Promise<{ failed: number; firstFailure?: string }> {
  let next = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const lane = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const status = await get(target);
      if (status !== 200) firstFailure ??= `${status} ${target}`;
      if (status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return { failed, firstFailure };
}

async function run(get: (target: string) => Promise<number>, snapshot: () => Promise<Omit<MemoryStage, 'stage' | 'requests' | 'seconds' | 'failed' | 'firstFailure'>>, log: string): Promise<MemoryStage[]> {
  const figures: MemoryStage[] = [{ stage: 'started, no request yet', requests: 0, seconds: 0, failed: 0, ...(await snapshot()) }];
  for (const [stage, targets] of stages) {
    const start = performance.now();
    const failures = await send(targets, get);
    figures.push({ stage, requests: targets.length, seconds: (performance.now() - start) / 1000, ...failures, ...(await snapshot()) });
    console.error(`[bench] memory, ${log}: ${stage}: RSS ${(figures.at(-1)!.rss / 2 ** 20).toFixed(1)} MiB`);
  }
  return figures;
}

async function measureWorkerd(): Promise<MemoryStage[]> {
  const isolate = await startWorkerdIsolate({ built: built!, script: script!, mode: 'answer', inspector: true });
  try {
    const get = async (target: string) => (await isolate.fetch(target)).status;
    return await run(get, async () => {
      const heap = await isolate.heap();
      return { rss: residentBytes(isolate.pid), heapUsed: heap.used, heapTotal: heap.total, buffers: heap.buffers };
    }, 'workerd');
  } finally {
    await isolate.close();
  }
}

async function measurePreview(): Promise<MemoryStage[]> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli!, 'preview', '--dir', built!, '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitForPort(port, child);
    const get = async (target: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${target}`);
      await response.arrayBuffer();
      return response.status;
    };
    return await run(get, async () => ({ rss: residentBytes(child.pid!) }), 'preview');
  } finally {
    await stop(child);
  }
}

const figures: MemoryFigures = { workerd: await measureWorkerd(), preview: await measurePreview() };
process.stdout.write(`${JSON.stringify(figures)}\n`);
