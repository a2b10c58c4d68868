import path from 'node:path';
import { DEFAULT_BASE_URL, DEFAULT_FILTERS, DEFAULT_FORMATS, DEFAULT_INPUT, DEFAULT_OUT } from '../config.ts';
import { describeProblem } from '../errors.ts';
import { DEFAULT_CACHE_CONTROL } from '../contract.ts';
import { build, type BuildConfig, type BuildSummary } from '../index.ts';
import { terminalProgress } from '../report/progress.ts';
import { CHANGED_FILE, REMOVED_FILE } from '../write/manifest.ts';
import { parseOptions, type Command } from './command.ts';

export const buildCommand: Command = {
  name: 'build',
  usage: `Usage: lda-mirror build [--input <file|folder|glob>] [--out <folder>] [--base-url <url>] [options]

Reads client records (NDJSON, JSON arrays, or saved pages of the live API), and writes every page of
/api/v1/clients/ in each ordering and format, unfiltered and for each value of every filter built,
every client and registrant record, the error bodies, and the rewrite map into <folder>. The previous
output stays untouched until the new one is complete.

Options:
  --input <path>        a records file, a folder (every .ndjson, .jsonl and .json below it), or a glob;
                        repeat for several (default: ${DEFAULT_INPUT})
  --out <folder>        the output folder, a link to the current build (default: ${DEFAULT_OUT})
  --base-url <url>      absolute http(s) URL the mirror is served at, e.g. https://lda.example.org
                        (default: ${DEFAULT_BASE_URL}, for lda-mirror preview; a warning says so)
  --formats <list>      formats to build, from none,api,json (default: ${DEFAULT_FORMATS})
  --cors <origin>       let web pages of this origin (* for any) read the answers: sends
                        Access-Control-Allow-Origin and answers preflights (default: off)
  --cache-control <v>   the Cache-Control of every answer, or none (default: ${DEFAULT_CACHE_CONTROL})
  --filters <list>      filters whose lists are precomputed, from registrant_id, client_state,
                        client_country, client_ppb_state, client_ppb_country; or none
                        (default: ${DEFAULT_FILTERS})
  --concurrency <n>     render threads, each writing its own files (default: one per core)
  --problem-limit <n>   bad records listed before giving up on listing (default: 50)
  --skip-invalid        build anyway, leaving out invalid records (listed in the summary)
  --skip-check          do not verify each file as it is written (the check) before switching
  --force               build even when the inputs, options and program are those of the current
                        output (otherwise such a build has nothing to do and says so)
  -h, --help            this help`,

  async run(argv) {
    const { values } = parseOptions(argv, {
      input: { type: 'string', multiple: true },
      out: { type: 'string' },
      'base-url': { type: 'string' },
      formats: { type: 'string' },
      cors: { type: 'string' },
      'cache-control': { type: 'string' },
      filters: { type: 'string' },
      concurrency: { type: 'string' },
      'problem-limit': { type: 'string' },
      'skip-invalid': { type: 'boolean' },
      'skip-check': { type: 'boolean' },
      force: { type: 'boolean' },
    });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const config: BuildConfig = {
      input: values.input,
      out: values.out,
      baseUrl: values['base-url'],
      formats: values.formats,
      cors: values.cors,
      cacheControl: values['cache-control'],
      filters: values.filters,
      concurrency: values.concurrency,
      problemLimit: values['problem-limit'],
      skipInvalid: values['skip-invalid'],
      skipCheck: values['skip-check'],
      force: values.force,
      // The previous build is deleted by a process of its own: the command returns when the new one is out.
      removePrevious: 'background',
    };
    const summary = await build(config, { progress: terminalProgress() });
    console.log(formatSummary(summary));
    for (const warning of summary.warnings) console.warn(`warning: ${warning}`);
    return 0;
  },
};

export function formatSummary(summary: BuildSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const lines = [
    summary.upToDate
      ? `Up to date: ${summary.out} was built from the same inputs, options and program; nothing written (--force builds anyway) in ${summary.seconds.toFixed(1)} s`
      : `Built ${summary.out} in ${summary.seconds.toFixed(1)} s`,
    `  output       ${summary.out} -> ${path.basename(summary.buildDir)}/ (what changed: ${CHANGED_FILE}, ${REMOVED_FILE})`,
    `  records      ${n(summary.recordsRead)} read from ${n(summary.inputFiles)} file(s) = ${n(summary.clients)} clients` +
      ` + ${n(summary.replacedClients)} replaced by a later copy of their id + ${n(summary.skipped)} skipped as invalid`,
    `  registrants  ${n(summary.registrants)}` +
      (summary.conflictedRegistrants > 0 ? ` (${n(summary.conflictedRegistrants)} with differing copies: latest dt_updated served)` : ''),
    `  pages        ${n(summary.pages)}`,
    `  files        ${n(summary.files)}, ${mb(summary.bytes)}: ${n(summary.written)} written (${mb(summary.bytesWritten)}), ` +
      `${n(summary.linked)} unchanged (linked), ${n(summary.removed)} removed`,
    `  bundle       ${n(summary.bundle.files)} files, ${mb(summary.bundle.bytes)}: ${n(summary.bundle.written)} written (${mb(summary.bundle.bytesWritten)}, ` +
      `${summary.bundle.bytes === 0 ? 0 : ((100 * summary.bundle.bytesWritten) / summary.bundle.bytes).toFixed(1)}%): the query bundle, for the hosts that run code`,
    `  time         ${summary.seconds.toFixed(1)} s (${Object.entries(summary.stages)
      .map(([stage, seconds]) => `${stage} ${seconds.toFixed(1)}`)
      .join(', ')})`,
  ];
  if (summary.leftoversRemoved.length > 0) {
    lines.push(`  cleaned      what an interrupted build left: ${summary.leftoversRemoved.join(', ')}`);
  }
  if (summary.skipped > 0) {
    lines.push(`Skipped ${n(summary.skipped)} invalid record(s):`, ...summary.skippedProblems.map((problem) => `  ${describeProblem(problem)}`));
    if (summary.skippedProblemsTruncated) lines.push('  (more not listed; see --problem-limit)');
  }
  return lines.join('\n');
}
