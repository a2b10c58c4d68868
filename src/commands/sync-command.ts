import { terminalProgress } from '../report/progress.ts';
import { RATE_WITHOUT_KEY, RATE_WITH_KEY, TOKEN_VARIABLE, resolveSyncOptions } from '../sync/sync-options.ts';
import { formatDuration, sync, type SyncOptions, type SyncSummary } from '../sync/sync.ts';
import { parseOptions, type Command } from './command.ts';

export const SYNC_OPTIONS_HELP = `  --upstream <url>      the service, e.g. https://lda.senate.gov (or https://lda.gov)
  --token <key>         API key, sent as "Authorization: Token <key>"; better: set ${TOKEN_VARIABLE}
  --rate <n>            requests a minute (default: ${RATE_WITHOUT_KEY}, or ${RATE_WITH_KEY} with a key: the service's limits)
  --concurrency <n>     requests in flight at once, within the rate (default: 2)
  --full                fetch every page (default: incremental, new records only)
  --max-tries <n>       tries per request before failing (default: 8)
  --backoff <ms>        first wait after a 5xx or dropped connection, doubled each time (default: 2000)
  --timeout <s>         one request's limit (default: 60)`;

export const syncCommand: Command = {
  name: 'sync',
  summary: 'copy the client records of the live service into a folder, for build',
  usage: `Usage: npm run sync -- --upstream <url> --out <folder> [--token <key>] [--rate <n>] [--concurrency <n>] [--full]

Pages through <upstream>/api/v1/clients/ and saves the records as <folder>/clients.ndjson, ready
for npm run build -- --input <folder>. Incremental by default: walks ordering=-id until it reaches
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
    const options = resolveSyncOptions({ ...values, maxTries: values['max-tries'] });
    const summary = await runSync(options);
    console.log(formatSyncSummary(options, summary));
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
export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  const progress = terminalProgress();
  console.error(
    `sync: ${options.upstream}/api/v1/clients/ -> ${options.out}, ${options.rate} requests/min${options.token ? ', with a key' : ''}`,
  );
  try {
    return await sync(
      {
        ...options,
        onRetry: (event) => {
          progress.end();
          console.error(`sync: ${event.url}: ${event.reason}; try ${event.attempt + 1} in ${formatDuration(event.waitMs / 1000)}`);
        },
      },
      progress,
    );
  } finally {
    progress.end();
  }
}

export function formatSyncSummary(options: SyncOptions, summary: SyncSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const mode = summary.fellBackToFull ? `full, because ${summary.fellBackToFull}` : summary.mode;
  return [
    `sync: ${n(summary.records)} records in ${options.out}/clients.ndjson (${mode})`,
    `  new          ${n(summary.added)}`,
    `  pages        ${n(summary.pagesFetched)} fetched, ${n(summary.pagesResumed)} kept from an interrupted run`,
    `  requests     ${n(summary.requests)} (${n(summary.retries)} retried)`,
    `  time         ${formatDuration(summary.seconds)}`,
  ].join('\n');
}
