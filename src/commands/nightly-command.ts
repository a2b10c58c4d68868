import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_FILTERS, DEFAULT_FORMATS, resolveBuildOptions, type BuildConfig } from '../config.ts';
import { build } from '../index.ts';
import { terminalProgress } from '../report/progress.ts';
import { resolveSyncOptions, type SyncConfig } from '../sync/sync-options.ts';
import { CHANGED_FILE, REMOVED_FILE } from '../write/manifest.ts';
import { formatSummary } from './build-command.ts';
import { DEFAULT_CACHE_CONTROL } from '../contract.ts';
import { parseOptions, type Command } from './command.ts';
import { SYNC_OPTIONS_HELP, formatSyncSummary, runSync, syncOptionSpec } from './sync-command.ts';

export const nightlyCommand: Command = {
  name: 'nightly',
  usage: `Usage: lda-mirror nightly --upstream <url> --data <folder> --out <folder> --base-url <url> [options]

The nightly job in one command: an incremental sync into <data> (a full one with --full, or when
<data> is empty), a build of <data> into <out> (which checks the new folder before switching to
it), then the change since the previous build: _build/changed.txt (files to upload) and
_build/removed.txt (files to delete), counted, and listed with --print-changes.
Nothing is switched when any step fails: the previous <out> keeps being served.

Options:
  --data <folder>       where the synced records live (clients.ndjson), kept between runs
  --out <folder>        the built mirror, kept between runs (unchanged files are linked, not rewritten)
  --base-url <url>      the URL the mirror is served at
  --formats <list>      formats to build (default: ${DEFAULT_FORMATS})
  --filters <list>      filters to precompute, or none (default: ${DEFAULT_FILTERS})
  --cors <origin>       let web pages of this origin (* for any) read the answers (default: off)
  --cache-control <v>   the Cache-Control of every answer, or none (default: ${DEFAULT_CACHE_CONTROL})
  --print-changes       print every changed path ("+ path") and removed path ("- path")
${SYNC_OPTIONS_HELP}
  -h, --help            this help`,

  async run(argv) {
    const { values } = parseOptions(argv, {
      ...syncOptionSpec,
      data: { type: 'string' },
      'base-url': { type: 'string' },
      formats: { type: 'string' },
      filters: { type: 'string' },
      cors: { type: 'string' },
      'cache-control': { type: 'string' },
      'print-changes': { type: 'boolean' },
    });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const syncConfig: SyncConfig = { ...values, out: values.data, maxTries: values['max-tries'] };
    const buildConfig: BuildConfig = {
      input: [values.data ?? ''],
      out: values.out ?? '',
      baseUrl: values['base-url'] ?? '',
      formats: values.formats,
      filters: values.filters,
      cors: values.cors,
      cacheControl: values['cache-control'],
      removePrevious: 'background',
    };
    // Every option is checked before the first request, so a typo fails in a second, not after the sync.
    resolveSyncOptions(syncConfig);
    resolveBuildOptions(buildConfig);

    const synced = await runSync(syncConfig);
    console.log(formatSyncSummary(synced));
    const built = await build(buildConfig, { progress: terminalProgress() });
    console.log(formatSummary(built));

    // An output found up to date has empty lists (build.ts empties them): nothing to deploy.
    const changed = listFile(built.out, CHANGED_FILE);
    const removed = listFile(built.out, REMOVED_FILE);
    console.log(
      `Change for deploy: ${changed.length.toLocaleString('en-US')} file(s) to upload (${path.join(built.out, CHANGED_FILE)}), ` +
        `${removed.length.toLocaleString('en-US')} to delete (${path.join(built.out, REMOVED_FILE)})`,
    );
    if (values['print-changes']) {
      for (const file of changed) console.log(`+ ${file}`);
      for (const file of removed) console.log(`- ${file}`);
    }
    return 0;
  },
};

function listFile(out: string, name: string): string[] {
  return readFileSync(path.join(out, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}
