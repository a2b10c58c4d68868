/**
 * Writes fake client records (scripts/lib/fake-clients.ts) as NDJSON, for the bundled sample and for
 * load tests:
 *
 *   npx tsx scripts/generate-sample.ts --records 3000 --seed 1 --out data/generated-clients.ndjson
 *
 * Exit codes: 0 done, 1 the write failed, 2 bad usage.
 */
import { once } from 'node:events';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { fakeClients } from './lib/fake-clients.ts';

const USAGE = `Usage: npx tsx scripts/generate-sample.ts --records N [--seed S] [--first-id I] --out <file>

Writes N fake client records, shaped like those of the live LDA API, as NDJSON (one record a line).
The same options always give the same bytes.

  --records N    how many records: a whole number from 0 up
  --seed S       PRNG seed: a whole number from 0 to 4294967295 (default 1)
  --first-id I   id of the first record: a whole number from 1 up (default 300000, above the real ids)
  --out FILE     the file to write (through FILE.tmp-<pid>, renamed when complete)
  --help         show this help`;

class UsageError extends Error {}

interface Options {
  records: number;
  seed: number;
  firstId: number;
  out: string;
}

function wholeNumber(option: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
    throw new UsageError(`--${option} must be a whole number ${range}, got "${text}"`);
  }
  return value;
}

/** The options, or undefined when help was asked for. */
function parseOptions(args: string[]): Options | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        records: { type: 'string' },
        seed: { type: 'string', default: '1' },
        'first-id': { type: 'string', default: '300000' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs reports unknown options, missing values and stray arguments as plain TypeErrors.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return undefined;
  if (values.records === undefined) throw new UsageError('--records is required');
  if (!values.out) throw new UsageError('--out is required');
  return {
    records: wholeNumber('records', values.records, 0),
    seed: wholeNumber('seed', values.seed, 0, 0xffffffff),
    firstId: wholeNumber('first-id', values['first-id'], 1),
    out: values.out,
  };
}

/** NDJSON in chunks of about 64 KB: one write per record would spend more time in the stream than in JSON. */
function* ndjson(records: Iterable<unknown>, onRecord: (done: number) => void): Generator<string> {
  let done = 0;
  let chunk = '';
  for (const record of records) {
    chunk += `${JSON.stringify(record)}\n`;
    onRecord(++done);
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Writes through a temporary file and renames it, so `file` is either the old one or complete. */
async function writeAtomically(file: string, chunks: Iterable<string>): Promise<number> {
  const temporary = `${file}.tmp-${process.pid}`;
  await mkdir(path.dirname(file), { recursive: true });
  // Opening first makes a bad path fail here, before any record is generated.
  const out = (await open(temporary, 'w')).createWriteStream();
  try {
    for (const chunk of chunks) {
      // Without waiting for 'drain', a large run would buffer the whole file in memory.
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    await rename(temporary, file);
    return out.bytesWritten;
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}

/** On a terminal, rewrites one status line at most every half second; elsewhere stays quiet. */
function progressLine(total: number): { update: (done: number) => void; clear: () => void } {
  if (!process.stderr.isTTY) return { update: () => {}, clear: () => {} };
  let shown = -Infinity;
  return {
    update(done) {
      const now = performance.now();
      if (now - shown < 500) return;
      shown = now;
      const percent = Math.floor((done / total) * 100);
      const counts = `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
      process.stderr.write(`\r${counts} records (${percent}%)`);
    },
    clear: () => process.stderr.write('\r\x1b[K'),
  };
}

async function main(args: string[]): Promise<number> {
  let options;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`generate-sample: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (options === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const progress = progressLine(options.records);
  const records = fakeClients({ count: options.records, seed: options.seed, firstId: options.firstId });
  const bytes = await writeAtomically(options.out, ndjson(records, progress.update)).finally(progress.clear);
  const seconds = (performance.now() - started) / 1000;
  const megabytes = (bytes / 1e6).toFixed(1);
  process.stdout.write(
    `Wrote ${options.records} records, ${bytes} bytes (${megabytes} MB) to ${options.out} in ${seconds.toFixed(2)} s\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`generate-sample: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
