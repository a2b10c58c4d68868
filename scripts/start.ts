/**
 * `npm start`: builds the bundled sample in data/ into dist/ and previews it on port 3000 (or $PORT),
 * the way a new user first meets the mirror.
 */
import { build } from '../src/build.ts';
import { formatSummary } from '../src/commands/build-command.ts';
import { resolveBuildOptions, wholeNumber } from '../src/config.ts';
import { startPreview } from '../src/preview/preview-server.ts';
import { terminalProgress } from '../src/report/progress.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: npm start

Builds the sample records in data/ into dist/ with base URL http://localhost:<port>, then serves
dist/ at that URL until Ctrl+C. The port is 3000, or $PORT when set.`);
  process.exit(0);
}

const port = wholeNumber('PORT', process.env.PORT ?? '3000', 1, 65535);
const base = `http://localhost:${port}`;
const summary = await build(resolveBuildOptions({ input: ['data'], out: 'dist', baseUrl: base }), terminalProgress());
console.log(formatSummary(summary));

const preview = await startPreview({ dir: 'dist', port, host: 'localhost' });
console.log(`
Serving the mirror at ${base}/api/v1/clients/  (Ctrl+C to stop)
Try:
  curl '${base}/api/v1/clients/?client_name=bank&page_size=10'
  curl '${base}/api/v1/clients/?ordering=-id'
  curl '${base}/api/v1/clients/?ordering=-name&page=2&format=json'
  curl '${base}/api/v1/clients/?page=last'
  curl '${base}/api/v1/clients/?client_country=US&client_name=health&ordering=-name'
  curl '${base}/api/v1/clients/44400/'
  curl '${base}/api/v1/registrants/401105130/?format=api'`);

const stop = () => void preview.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
