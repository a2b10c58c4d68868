import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { Miniflare } from 'miniflare';
import { loadMap } from '../../src/built-folder.ts';
import { cloudflare } from '../../src/hosts/cloudflare/cloudflare.ts';
import { answererDefines } from '../../src/hosts/program-bundler.ts';

/**
 * One Worker in a workerd process of its own (miniflare), over a built folder's query bundle as its
 * static assets, configured as `emit cloudflare` configures it (src/preview/workerd-preview.ts): so
 * its isolate is fresh, and the process holds nothing but it and miniflare's own small workers.
 *
 * How its CPU is read: workerd gives no isolate's CPU time to a local caller (its tail events carry
 * none outside Cloudflare, and the inspector's profiler samples rather than counts), so the bench reads
 * the kernel's count of the process's time on a CPU, in nanoseconds, summed over its threads
 * (`/proc/<pid>/task/<tid>/schedstat`, first field), before the request and after its body has
 * arrived. That counts, beside the Worker, the entry and asset workers miniflare puts in front of
 * it and the file reads of the assets service; a Worker that only reads the same files pays those too,
 * so the difference of the two is the answer's own work.
 */
export interface IsolateHeap {
  /** The V8 heap in use, and reserved. */
  used: number;
  total: number;
  /** The ArrayBuffers' memory outside the V8 heap: the bundle files read and decoded live there. */
  buffers: number;
}

export interface WorkerdIsolate {
  pid: number;
  fetch(target: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: string }>;
  /**
   * The Worker isolate's memory, in bytes (the inspector's `Runtime.getHeapUsage`); with `collect`,
   * after a full collection (`HeapProfiler.collectGarbage`): what the isolate keeps, not what the
   * collector has not yet freed.
   */
  heap(options?: { collect?: boolean }): Promise<IsolateHeap>;
  close(): Promise<void>;
}

/**
 * The bench Worker (bench-worker.ts) as one ES module, into `folder`: with the warm-up bundle, as the
 * deployed Worker is bundled; with `warmUp` false, without it (what the warm-up costs at startup).
 */
export function compileBenchWorker(folder: string, { warmUp = true } = {}): string {
  const file = path.join(folder, warmUp ? 'bench-worker.mjs' : 'bench-worker-cold.mjs');
  buildSync({ entryPoints: ['scripts/bench/bench-worker.ts'], outfile: file, bundle: true, platform: 'neutral', format: 'esm', logLevel: 'warning', define: warmUp ? answererDefines() : {} });
  return file;
}

export async function startWorkerdIsolate(options: { built: string; script: string; mode: 'answer' | 'reads'; inspector?: boolean }): Promise<WorkerdIsolate> {
  const before = new Set(workerdChildren());
  const mf = new Miniflare({
    modules: true,
    scriptPath: options.script,
    compatibilityDate: await compatibilityDate(options.built),
    bindings: { MODE: options.mode },
    ...(options.inspector ? { inspectorPort: 0 } : {}),
    assets: {
      directory: path.join(options.built, 'bundle'),
      binding: 'ASSETS',
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
      assetConfig: { html_handling: 'none', not_found_handling: 'none' },
    },
  });
  const url = await mf.ready;
  const pid = workerdChildren().find((child) => !before.has(child));
  if (pid === undefined) throw new Error('workerd-isolate: no new workerd process found under this one');
  return {
    pid,
    async fetch(target, headers = {}) {
      const response = await mf.dispatchFetch(new URL(target, url).href, { headers });
      return { status: response.status, headers: response.headers as unknown as Headers, body: await response.text() };
    },
    async heap({ collect = false } = {}) {
      // workerd runs an inspector command that needs the isolate only once the isolate next runs: a
      // request outside the API (a 404 from the answerer, a few hundred bytes) lets it run.
      const poke = async () => void (await (await mf.dispatchFetch(new URL('/bench-collect/', url).href)).arrayBuffer());
      return inspectHeap(`${String(await mf.getInspectorURL()).replace(/\/$/, '')}/core:user:`, { collect, poke });
    },
    close: () => mf.dispose(),
  };
}

/** The compatibility date of the wrangler.jsonc that `emit cloudflare` writes for this build: the Worker runs as deployed. */
async function compatibilityDate(built: string): Promise<string> {
  const wrangler = cloudflare.emit({ map: await loadMap(built), dir: built }).find((file) => file.name === 'wrangler.jsonc')!;
  return (JSON.parse(wrangler.text.split('\n').filter((line) => !line.startsWith('//')).join('\n')) as { compatibility_date: string }).compatibility_date;
}

/** workerd processes whose parent is this process (miniflare starts one per instance). */
function workerdChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'workerd' && ppid === process.pid) found.push(Number(entry));
    } catch {
      // A process that ended while the list was read.
    }
  }
  return found;
}

/** Nanoseconds the process's threads have spent on a CPU (the kernel's schedstat, not sampled). */
export function cpuNanoseconds(pid: number): number {
  return threadNanoseconds(pid).all;
}

/**
 * The same, and the part of it spent by the process's main thread: the thread workerd runs its
 * isolates on (the Worker's JavaScript, and miniflare's own workers'), apart from V8's helper threads
 * (concurrent compilation and collection) and workerd's I/O threads.
 */
export function threadNanoseconds(pid: number): { all: number; main: number } {
  let all = 0;
  let main = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      all += ns;
      if (tid === String(pid)) main = ns;
    } catch {
      // A thread that ended while the list was read: its time is lost to both measures alike.
    }
  }
  return { all, main };
}

/** The process's resident memory, in bytes (VmRSS). */
export function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/**
 * The heap of an isolate through its inspector (the Chrome DevTools protocol: workerd's, on the socket
 * `inspectorPort` opens, the Worker, unnamed, being its target `core:user:`; or Node's, `--inspect`):
 * `Runtime.getHeapUsage`, the V8 heap in use and reserved, and the ArrayBuffers' backing stores.
 * With `collect`, a full collection first (`HeapProfiler.collectGarbage`), which workerd runs only once
 * the isolate next runs: `poke` (a request) is made until it has. Node 20's WebSocket needs
 * `--experimental-websocket` (the bench runs this in a child with it).
 */
export async function inspectHeap(socketUrl: string, { collect = false, poke }: { collect?: boolean; poke?: () => Promise<void> } = {}): Promise<IsolateHeap> {
  const socket = new WebSocket(socketUrl);
  await new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject)));
  type Usage = { usedSize: number; totalSize: number; backingStorageSize?: number };
  const replies = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.error !== undefined) throw new Error(`the inspector: ${message.error.message}`);
    if (message.id !== undefined) replies.get(message.id)?.(message.result);
  };
  let id = 0;
  const send = <T>(method: string) => new Promise<T>((resolve) => (replies.set(++id, resolve as (result: unknown) => void), socket.send(JSON.stringify({ id, method }))));
  try {
    if (collect) {
      let collected = false;
      const collecting = send('HeapProfiler.collectGarbage').then(() => (collected = true));
      while (poke !== undefined && !collected) await Promise.all([poke(), Promise.race([collecting, new Promise((resolve) => setTimeout(resolve, 200))])]);
      await collecting;
    }
    const { usedSize, totalSize, backingStorageSize } = await send<Usage>('Runtime.getHeapUsage');
    return { used: usedSize, total: totalSize, buffers: backingStorageSize ?? 0 };
  } finally {
    socket.close();
  }
}
