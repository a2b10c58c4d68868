import { statSync } from 'node:fs';
import path from 'node:path';
import type { FirstRequest } from './first-requests.ts';
import { median, medianDifferenceInterval } from './median-interval.ts';
import { startWorkerdIsolate, threadNanoseconds } from './workerd-isolate.ts';

/**
 * Issue 39 point 4's first-answer table: for each kind of first request (first-requests.ts), in
 * fresh isolates in workerd (one process each, workerd-isolate.ts), the bundle files the Worker
 * reads, their MiB, and the CPU it spends beyond those reads: the median CPU of `isolates` Workers
 * answering it, minus the median of as many that only read the same files (bench-worker.ts). The
 * answering and the reading Workers alternate, so that a slower spell of the shared machine falls on both.
 */
export interface FirstAnswer {
  kind: string;
  target: string;
  status: number;
  /** The answer's `count` against the input's, when the kind is a list. */
  countRight: boolean;
  files: number;
  bytes: number;
  answerCpuMs: number[];
  readsCpuMs: number[];
  /** The same on workerd's main thread alone (workerd-isolate.ts, threadNanoseconds). */
  answerMainMs: number[];
  readsMainMs: number[];
}

/** After the body has arrived: long enough for the work that follows it (V8's helper threads, the sockets) to be counted on both sides alike. */
const SETTLE_MS = 100;

export async function measureFirstAnswers(options: { built: string; script: string; requests: FirstRequest[]; isolates: number; log: (text: string) => void }): Promise<FirstAnswer[]> {
  const answers: FirstAnswer[] = [];
  for (const request of options.requests) {
    const answer: FirstAnswer = { kind: request.kind, target: request.target, status: 0, countRight: true, files: 0, bytes: 0, answerCpuMs: [], readsCpuMs: [], answerMainMs: [], readsMainMs: [] };
    let files: string[] = [];
    for (let i = 0; i < options.isolates; i++) {
      const answered = await timedInFreshIsolate(options, 'answer', request.target, {});
      files = JSON.parse(answered.headers.get('x-bench-files') ?? '[]') as string[];
      answer.status = answered.status;
      if (request.count !== undefined) answer.countRight &&= answered.status === 200 && (JSON.parse(answered.body) as { count: number }).count === request.count;
      answer.answerCpuMs.push(answered.cpuMs);
      answer.answerMainMs.push(answered.mainMs);
      const read = await timedInFreshIsolate(options, 'reads', '/', { 'x-bench-files': JSON.stringify(files) });
      if (read.body !== String(files.length)) throw new Error(`first answers: the reading Worker answered ${read.status} ${read.body.slice(0, 200)}`);
      answer.readsCpuMs.push(read.cpuMs);
      answer.readsMainMs.push(read.mainMs);
    }
    answer.files = files.length;
    answer.bytes = files.reduce((sum, file) => sum + statSync(path.join(options.built, 'bundle', file)).size, 0);
    options.log(`first answer: ${request.kind}: ${answer.files} files, ${(answer.bytes / 2 ** 20).toFixed(2)} MiB, CPU ${median(answer.answerCpuMs).toFixed(1)} ms against ${median(answer.readsCpuMs).toFixed(1)} ms reading`);
    answers.push(answer);
  }
  return answers;
}

async function timedInFreshIsolate(options: { built: string; script: string }, mode: 'answer' | 'reads', target: string, headers: Record<string, string>) {
  const isolate = await startWorkerdIsolate({ built: options.built, script: options.script, mode });
  try {
    const before = threadNanoseconds(isolate.pid);
    const reply = await isolate.fetch(target, headers);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = threadNanoseconds(isolate.pid);
    return { ...reply, cpuMs: (after.all - before.all) / 1e6, mainMs: (after.main - before.main) / 1e6 };
  } finally {
    await isolate.close();
  }
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
/** A difference of medians and, in brackets, its 90 % bootstrap interval (median-interval.ts). */
const withInterval = (difference: number, answering: number[], reading: number[]) => {
  const { low, high } = medianDifferenceInterval(answering, reading);
  return `${difference.toFixed(1)} (${low.toFixed(1)} to ${high.toFixed(1)})`;
};
/** The median, and the least and most, of one side's isolates: how far apart they are says how much the difference can be trusted. */
const spread = (ms: number[]) => `${median(ms).toFixed(1)} (${Math.min(...ms).toFixed(1)}-${Math.max(...ms).toFixed(1)})`;

/** The table as markdown rows, with issue 39's targets: at most 1 MiB, 30 files and 5 ms beyond the reads. */
export function firstAnswerTable(answers: FirstAnswer[], isolates: number): string[] {
  const rows = answers.map((a) => {
    const beyond = median(a.answerCpuMs) - median(a.readsCpuMs);
    const met = a.bytes <= 2 ** 20 && a.files <= 30 && beyond <= 5;
    const wrong = a.status !== 200 || !a.countRight ? ` (status ${a.status}${a.countRight ? '' : ', count differs from the input'})` : '';
    const onMain = median(a.answerMainMs) - median(a.readsMainMs);
    return `| ${a.kind}${wrong} | ${a.files} | ${mib(a.bytes)} | ${spread(a.answerCpuMs)} | ${spread(a.readsCpuMs)} | ${withInterval(beyond, a.answerCpuMs, a.readsCpuMs)} | ${withInterval(onMain, a.answerMainMs, a.readsMainMs)} | ${met ? 'met' : 'missed'} |`;
  });
  return [
    `First answers in fresh workerd isolates (issue 39 point 4; scripts/bench/first-answers.ts): CPU is the workerd process's time on a CPU (schedstat, all threads) from the request to ${SETTLE_MS} ms after its body, median of ${isolates} isolates, each in a process of its own; "reads only" is the same Worker reading the same files and answering nothing. In brackets after each difference, its 90 % bootstrap interval (each side's isolates drawn again 2,000 times): how far the difference can be trusted, where one isolate differs from the next by several ms. The targets are judged on every thread: <= 30 files, <= 1 MiB, <= 5 ms beyond the reads. The column before them is the same difference on workerd's main thread alone, the thread the isolate runs on: the rest is V8's helper threads (concurrent compilation and collection) and workerd's I/O threads.`,
    '',
    '| first request | files | MiB | CPU, answering (ms): median (least-most) | CPU, reads only (ms): median (least-most) | CPU beyond the reads (ms): difference of the medians (90 % interval) | of it, on the main thread (90 % interval) | targets |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}
