/**
 * `npm start`: builds the bundled sample in data/ into dist/ and previews it on port 3000 (or $PORT),
 * the way a new user first meets the mirror.
 */
import { createServer } from 'node:net';
import { build } from '../src/build.ts';
import { formatSummary } from '../src/commands/build-command.ts';
import { resolveBuildOptions, wholeNumber } from '../src/config.ts';
import { startPreview } from '../src/preview/preview-server.ts';
import { terminalProgress } from '../src/report/progress.ts';
import { START_EXAMPLES } from './start-examples.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: npm start

Builds the sample records in data/ into dist/ with base URL http://localhost:<port>, then serves
dist/ at that URL until Ctrl+C. The port is 3000, or $PORT when set.`);
  process.exit(0);
}

const port = wholeNumber('PORT', process.env.PORT ?? '3000', 1, 65535);
const host = 'localhost';
const base = `http://${host}:${port}`;

// Checked before the build, which takes a while: a port in use would only fail once it is done.
const busy = await portProblem(port, host);
if (busy !== undefined) {
  console.error(`npm start: ${busy}`);
  process.exit(1);
}

const summary = await build(resolveBuildOptions({ input: ['data'], out: 'dist', baseUrl: base }), terminalProgress());
console.log(formatSummary(summary));

const preview = await startPreview({ dir: 'dist', port, host }).catch((error: NodeJS.ErrnoException) => {
  // Taken between the check and now: still one line, not a stack.
  console.error(`npm start: ${describeListenError(error, port)}`);
  process.exit(1);
});
console.log(`
Serving the mirror at ${base}/api/v1/clients/  (Ctrl+C to stop)
Try:
${START_EXAMPLES.map((example) => `  curl '${base}${example}'`).join('\n')}`);

const stop = () => void preview.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

/** Why the preview could not listen on `port`, or undefined when it can: a listen and close, as the preview's own listen would go. */
function portProblem(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(describeListenError(error, port)));
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
}

function describeListenError(error: NodeJS.ErrnoException, port: number): string {
  if (error.code === 'EADDRINUSE') return `port ${port} is in use by another program; stop it, or choose another port: PORT=${port + 1} npm start`;
  if (error.code === 'EACCES') return `port ${port} needs privileges this user lacks; choose a port above 1023: PORT=3000 npm start`;
  return `cannot listen on port ${port}: ${error.message}`;
}
