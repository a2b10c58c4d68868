import { sync, type SyncConfig, type SyncSummary } from '../index.ts';
import { terminalProgress } from '../report/progress.ts';
import { formatDuration } from '../report/time-left.ts';
import { formatMovedNotice } from '../sync/moved-upstream.ts';
import { RATE_WITHOUT_KEY, RATE_WITH_KEY, TOKEN_VARIABLE } from '../sync/sync-options.ts';
import { parseOptions, type Command } from './command.ts';

export const SYNC_OPTIONS_HELP = `  --upstream <url>      the service, e.g. https://lda.gov
  --token <key>         API key, sent as "Authorization: Token <key>"; better: set ${TOKEN_VARIABLE}
  --rate <n>            requests a minute (default: ${RATE_WITHOUT_KEY}, or ${RATE_WITH_KEY} with a key: the service's limits)
  --concurrency <n>     requests in flight at once, within the rate (default: 2)
  --full                fetch every page (default: incremental, new records only)
  --max-tries <n>       tries per request before failing (default: 8)
  --backoff <ms>        first wait after a 5xx, a dropped connection or an answer that is not a
                        page of the list, doubled each time (default: 2000)
  --timeout <s>         one request's limit (default: 60)`;

export const syncCommand: Command = {
  name: 'sync',
  usage: `Usage: lda-mirror sync --upstream <url> --out <folder> [--token <key>] [--rate <n>] [--concurrency <n>] [--full]

Pages through <upstream>/api/v1/clients/ and saves the records as <folder>/clients.ndjson, ready
for lda-mirror build --input <folder>. Incremental by default: walks ordering=-id until it reaches
records already saved and merges the new ones (a full sync runs when there is nothing saved yet).
--full fetches every page again, which also picks up changed records (a registrant's new address).
Killed at any moment, the next run with the same options carries on from the pages already saved.
Fails, keeping the previous clients.ndjson, when the records saved do not number the upstream count.

Options:
  --out <folder>        where clients.ndjson goes
${SYNC_OPTIONS_HELP}
  -h, --help            this help`,

  async run(argv) {
    const { values } = parseOptions(argv, syncOptionSpec);
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const summary = await runSync({ ...values, maxTries: values['max-tries'] });
    console.log(formatSyncSummary(summary));
    return 0;
  },
};

export const syncOptionSpec = {
  upstream: { type: 'string' },
  out: { type: 'string' },
  token: { type: 'string' },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  full: { type: 'boolean' },
  'max-tries': { type: 'string' },
  backoff: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** A sync with its progress on the terminal (plain lines in CI) and retries said as they happen. */
export function runSync(config: SyncConfig): Promise<SyncSummary & { out: string }> {
  const progress = terminalProgress();
  return sync(config, {
    progress,
    onStart: (options) =>
      console.error(`sync: ${options.upstream}/api/v1/clients/ -> ${options.out}, ${options.rate} requests/min${options.token ? ', with a key' : ''}`),
    onMoved: (notice) => {
      progress.end();
      console.error(formatMovedNotice(notice));
    },
    onRetry: (event) => {
      progress.end();
      console.error(`sync: ${event.url}: ${event.reason}; try ${event.attempt + 1} in ${formatDuration(event.waitMs / 1000)}`);
    },
  });
}

export function formatSyncSummary(summary: SyncSummary & { out: string }): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const mode = summary.fellBackToFull ? `full, because ${summary.fellBackToFull}` : summary.mode;
  return [
    `sync: ${n(summary.records)} records in ${summary.out}/clients.ndjson (${mode})`,
    `  new          ${n(summary.added)}`,
    `  pages        ${n(summary.pagesFetched)} fetched, ${n(summary.pagesResumed)} kept from an interrupted run`,
    `  registrants  ${n(summary.registrants.records)} in ${summary.out}/registrants.ndjson (${summary.registrants.mode}), ${n(summary.registrants.added)} new, ${n(summary.registrants.pagesFetched)} pages fetched`,
    `  requests     ${n(summary.requests)} (${n(summary.retries)} retried)`,
    `  time         ${formatDuration(summary.seconds)}`,
  ].join('\n');
}
