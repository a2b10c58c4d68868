/**
 * The answerer's cost per request (issue 31 points 4 and 5), in a process of its own: the compiled
 * answerer (lib/answer/answerer.js, what the preview and the hosts run) over a built folder, read
 * with node:fs, asked the requests of scripts/bench/search-mix.ts. Each answer's CPU time is the
 * process's (all threads: a read's work in libuv's pool counts too) around the awaited answer.
 *
 *   node answerer-child.mjs <lib/answer/answerer.js> <built folder> <mix.json> first|measure
 *
 * `first`: the first request of the mix in a fresh process, the bundle not yet read (the module is
 * imported before, and timed on its own). `measure`: everything else, in this order: the mix with
 * `cacheResults: false` (each answer on its own), the mix with the result cache on (as a Worker runs
 * it), the mix as the preview runs it (its budgets, reads not checked again), each on an answerer of
 * its own after a warm-up mix of other searches, untimed; the reads of a fresh answerer for each of the
 * heaviest requests; the hostile requests, on the answerer of the first measure.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as AnswererModule from '../../src/answer/answerer.ts';
import type * as PreviewModule from '../../src/preview/exact-answers.ts';
import type { MixRequest, SearchMix } from './search-mix.ts';

export interface Timing {
  status: number;
  cpuMs: number;
  wallMs: number;
}

export interface Spread {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers that were not a 200 with the count the input gives: none, when the mix and the answerer agree. */
  wrong: string[];
}

export interface FirstRequest extends Timing {
  target: string;
  importMs: number;
  reads: number;
}

export interface AnswererFigures {
  uncached: Spread;
  cached: Spread;
  /** As the preview runs it: its budgets (the whole bundle kept), reads not checked again. */
  preview: Spread;
  reads: { requests: number; median: number; max: number; heaviest: string };
  hostile: (Timing & { name: string })[];
}

const [modulePath, folder, mixFile, mode] = process.argv.slice(2);
const importStart = performance.now();
const { createAnswerer } = (await import(pathToFileURL(modulePath!).href)) as typeof AnswererModule;
const importMs = performance.now() - importStart;
const mix = JSON.parse(readFileSync(mixFile!, 'utf8')) as SearchMix;
// The preview's options, from the same compiled program (lib/preview/exact-answers.js beside lib/answer/).
const { PREVIEW_ANSWERS } = (await import(pathToFileURL(path.join(path.dirname(modulePath!), '../preview/exact-answers.js')).href)) as typeof PreviewModule;

/** A file of the built folder's query bundle, as the preview reads it (src/built-folder.ts). */
async function read(file: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path.join(folder!, 'bundle', file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function timed(answerer: AnswererModule.Answerer, target: string): Promise<Timing & { body: string }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const reply = await answerer.answer('GET', target);
  const used = process.cpuUsage(cpu);
  return { status: reply.status, body: reply.body, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall };
}

/** The mix timed on one answerer, after the warm-up mix; nearest-rank percentiles of the CPU times. */
async function spread(answerer: AnswererModule.Answerer, requests: MixRequest[]): Promise<Spread> {
  for (const request of mix.warmUp) await answerer.answer('GET', request.target);
  const times: number[] = [];
  const wrong: string[] = [];
  for (const request of requests) {
    const { status, body, cpuMs } = await timed(answerer, request.target);
    times.push(cpuMs);
    const count = status === 200 ? (JSON.parse(body) as { count: number }).count : undefined;
    if (count !== request.count) wrong.push(`${request.target}: ${status}, count ${count} (the input has ${request.count})`);
  }
  times.sort((a, b) => a - b);
  const rank = (p: number) => times[Math.max(0, Math.ceil(p * times.length) - 1)]!;
  return { requests: times.length, p50: rank(0.5), p99: rank(0.99), max: times.at(-1)!, wrong };
}

async function measure(): Promise<AnswererFigures> {
  const uncachedAnswerer = createAnswerer(read, { cacheResults: false });
  const uncached = await spread(uncachedAnswerer, mix.requests);
  const cached = await spread(createAnswerer(read), mix.requests);
  const preview = await spread(createAnswerer(read, PREVIEW_ANSWERS), mix.requests);
  const reads: { target: string; reads: number }[] = [];
  for (const { target } of mix.heaviest) {
    const answerer = createAnswerer(read);
    await answerer.answer('GET', target);
    reads.push({ target, reads: answerer.bundle!.reads });
  }
  reads.sort((a, b) => a.reads - b.reads);
  const hostile = [];
  for (const { name, target } of mix.hostile) {
    const { status, cpuMs, wallMs } = await timed(uncachedAnswerer, target);
    hostile.push({ name, status, cpuMs, wallMs });
  }
  return {
    uncached,
    cached,
    preview,
    reads: { requests: reads.length, median: reads[Math.floor(reads.length / 2)]!.reads, max: reads.at(-1)!.reads, heaviest: reads.at(-1)!.target },
    hostile,
  };
}

async function first(): Promise<FirstRequest> {
  const answerer = createAnswerer(read);
  const { target } = mix.requests[0]!;
  const { status, cpuMs, wallMs } = await timed(answerer, target);
  return { target, status, cpuMs, wallMs, importMs, reads: answerer.bundle!.reads };
}

const figures = mode === 'first' ? await first() : await measure();
process.stdout.write(`${JSON.stringify(figures)}\n`);
