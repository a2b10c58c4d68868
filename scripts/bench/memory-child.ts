/**
 * Issue 39 point 3, in a process of its own (node --experimental-websocket, for the inspectors): the
 * memory sequence (memory-sequence.ts) sent to one Worker in a fresh workerd process
 * (workerd-isolate.ts), then to the preview (the compiled `lda-mirror preview`, answering by
 * default, run with `--inspect`); after each stage, twice: as found (what the collector has not yet
 * freed included), then after a full collection forced through the inspector
 * (`HeapProfiler.collectGarbage`): what is kept, which is what the budgets bound. The Worker: its V8
 * heap and ArrayBuffers (`Runtime.getHeapUsage`) and the workerd process's RSS; the preview: its
 * process's heap and ArrayBuffers (`process.memoryUsage()`, read through the inspector) and RSS.
 * Requests go 4 at a time (an isolate serves concurrent requests too); every answer must be a 200.
 *
 *   node --experimental-websocket --import tsx memory-child.ts <built> <sequence.json> <bench-worker.mjs> <lib/cli.js>
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync } from 'node:fs';
import { freePort } from '../../test/support/real-servers.ts';
import type { MemorySequence } from './memory-sequence.ts';
import { stop, waitForPort } from './preview-throughput.ts';
import { inspectHeap, residentBytes, startWorkerdIsolate } from './workerd-isolate.ts';

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
  /** The same after a full collection: what is kept. */
  kept?: { rss: number; heapUsed: number; buffers: number };
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
      const rss = residentBytes(isolate.pid);
      const kept = await isolate.heap({ collect: true });
      return { rss, heapUsed: heap.used, heapTotal: heap.total, buffers: heap.buffers, kept: { rss: residentBytes(isolate.pid), heapUsed: kept.used, buffers: kept.buffers } };
    }, 'workerd');
  } finally {
    await isolate.close();
  }
}

async function measurePreview(): Promise<MemoryStage[]> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', cli!, 'preview', '--dir', built!, '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const inspector = inspectorUrl(child.stderr!);
  try {
    await waitForPort(port, child);
    const url = await inspector;
    const get = async (target: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${target}`);
      await response.arrayBuffer();
      return response.status;
    };
    return await run(get, async () => {
      const found = await processMemory(url, false);
      const kept = await processMemory(url, true);
      return { rss: found.rss, heapUsed: found.heapUsed, heapTotal: found.heapTotal, buffers: found.arrayBuffers, kept: { rss: kept.rss, heapUsed: kept.heapUsed, buffers: kept.arrayBuffers } };
    }, 'preview');
  } finally {
    await stop(child);
  }
}

/** The URL of the inspector of a Node process started with `--inspect` (from its first lines on stderr, which go on to ours). */
function inspectorUrl(stderr: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stderr });
    lines.on('line', (line) => {
      const found = /Debugger listening on (ws:\/\/\S+)/.exec(line);
      if (found !== null) resolve(found[1]!);
      else if (!/^(For help, see|Debugger (attached|ending))/.test(line)) process.stderr.write(`${line}\n`);
    });
    lines.on('close', () => reject(new Error('the preview closed its stderr before its inspector listened')));
  });
}

/** The preview process's `process.memoryUsage()`, through its inspector; after a full collection with `collect`. */
async function processMemory(url: string, collect: boolean): Promise<NodeJS.MemoryUsage> {
  if (collect) await inspectHeap(url, { collect: true });
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject)));
  const reply = new Promise<NodeJS.MemoryUsage>((resolve) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: { result: { value: string } } };
      if (message.id === 1) resolve(JSON.parse(message.result!.result.value) as NodeJS.MemoryUsage);
    };
  });
  socket.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true } }));
  try {
    return await reply;
  } finally {
    socket.close();
  }
}

const figures: MemoryFigures = { workerd: await measureWorkerd(), preview: await measurePreview() };
process.stdout.write(`${JSON.stringify(figures)}\n`);
