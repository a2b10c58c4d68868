import { spawnSync } from 'node:child_process';
import type { AnswererFigures, FirstRequest, Spread } from './answerer-child.ts';
import type { SearchMix } from './search-mix.ts';

/**
 * Issue 31 points 4 and 5 for the answerer alone: scripts/bench/answerer-child.ts run twice over a
 * built folder, once for the first request in a fresh process, once for the rest; and the report's
 * rows, each saying what it measured.
 */
export interface AnswererMeasure {
  first: FirstRequest;
  figures: AnswererFigures;
}

export interface AnswererChild {
  /** The child, compiled to one .mjs file that node runs without tsx. */
  script: string;
  /** The compiled answerer, lib/answer/answerer.js. */
  answerer: string;
  built: string;
  /** The search mix, as JSON. */
  mixFile: string;
}

export function measureAnswerer(child: AnswererChild): AnswererMeasure {
  const run = <T>(mode: 'first' | 'measure') => {
    const result = spawnSync(process.execPath, [child.script, child.answerer, child.built, child.mixFile, mode], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (result.status !== 0) throw new Error(`${child.script} ${mode} failed:\n${result.stderr}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as T;
  };
  return { first: run<FirstRequest>('first'), figures: run<AnswererFigures>('measure') };
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const verdict = (met: boolean) => (met ? 'met' : 'missed');

export function answererRows({ first, figures }: AnswererMeasure, mix: SearchMix): [string, string][] {
  const spread = (s: Spread) => {
    const wrong = s.wrong.length === 0 ? '' : `; ${s.wrong.length} answers differ from the input's count, the first: ${s.wrong[0]}`;
    return `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (target p99 <= 5 ms, issue 39: ${verdict(s.p99 <= 5)})${wrong}`;
  };
  const hostileLimit = 50;
  return [
    [
      `answerer (lib/answer/answerer.js, node:fs reads), CPU per request, each answer on its own (\`cacheResults: false\`): the ${figures.uncached.requests.toLocaleString('en-US')} requests of scripts/bench/search-mix.ts (substrings of 3-12 characters of the input's names, random case; a third of the searches with the client's \`client_state\`; ordering none, -name, -effective_date, -id, name or -name,id; page_size 10, 25 or 100; pages 1, 2 and last of each search), after ${mix.warmUp.length.toLocaleString('en-US')} other searches untimed; process.cpuUsage around each awaited answer (scripts/bench/answerer-child.ts)`,
      spread(figures.uncached),
    ],
    ['answerer, the same mix with the result cache on (as a Worker runs it: files 20 + 12 MiB, each read checked; pages 2 and last of a search come from its page 1)', spread(figures.cached)],
    ['answerer, the same mix as the preview runs it (files 32 + 128 MiB, results 32, pages 64: the whole bundle kept; reads not checked again)', spread(figures.preview)],
    [
      `answerer, the mix's first request in a fresh process, bundle not yet read (\`${mix.requests[0]!.target}\`; importing the module before it: ${ms(first.importMs)})`,
      `wall ${ms(first.wallMs)}, CPU ${ms(first.cpuMs)}, ${first.reads} files read, status ${first.status} (target <= 100 ms: wall ${verdict(first.wallMs <= 100)}, CPU ${verdict(first.cpuMs <= 100)})`,
    ],
    [
      `answerer, files read by one answer: a fresh answerer for each of ${figures.reads.requests} searches of the heaviest kind (\`client_state\`, ordering effective_date or -effective_date, last page, page_size 100), \`answerer.bundle.reads\``,
      `max ${figures.reads.max}, median ${figures.reads.median} (target <= 50: ${verdict(figures.reads.max <= 50)}); the most: \`${figures.reads.heaviest}\``,
    ],
    ...figures.hostile.map(({ name, status, cpuMs, wallMs }): [string, string] => [
      `hostile request (issue 31 point 5), on the answerer of the first row: ${name}`,
      `${status}, CPU ${ms(cpuMs)}, wall ${ms(wallMs)} (target: no 5xx, CPU <= ${hostileLimit} ms: ${verdict(status < 500 && cpuMs <= hostileLimit)})`,
    ]),
  ];
}
