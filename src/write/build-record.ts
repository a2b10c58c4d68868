import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from '../config.ts';
import { BUILD_FOLDER } from './manifest.ts';

/**
 * What a build records about what it was made from, in `_build/build.json`: a fingerprint of its
 * inputs' bytes, the options that shape the output and this program's own code, and the summary's
 * counts. A build whose fingerprint is the current output's has nothing to do: the output is already
 * what it would write (issue 13: a rebuild with no change costs a read of the inputs, not a build).
 */
export const BUILD_RECORD_FILE = `${BUILD_FOLDER}/build.json`;

export interface BuildRecord<Counts> {
  fingerprint: string;
  counts: Counts;
}

/**
 * The fingerprint of a build: the input files' bytes in the order read (a later copy of a record
 * replaces an earlier one; where the files lie does not matter), the options that shape the output,
 * and the program.
 */
export async function buildFingerprint(inputFiles: readonly string[], options: BuildOptions): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ baseUrl: options.baseUrl, formats: options.formats, http: options.http, filters: options.filters, skipInvalid: options.skipInvalid, check: options.check }));
  hash.update(programFingerprint());
  for (const file of inputFiles) {
    let size = 0;
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    hash.update(`\n${size} bytes\n`); // where one file ends and the next begins

  }
  return hash.digest('hex');
}

export function readBuildRecord<Counts>(folder: string): BuildRecord<Counts> | undefined {
  const file = path.join(folder, BUILD_RECORD_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BuildRecord<Counts>;
  } catch {
    return undefined; // unreadable: build again
  }
}

export function writeBuildRecord<Counts>(folder: string, record: BuildRecord<Counts>): void {
  writeFileSync(path.join(folder, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

let program: string | undefined;

/** A digest of this program's files (src/ in a checkout, lib/ installed): new code is a new build. */
function programFingerprint(): string {
  if (program === undefined) {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const hash = createHash('sha256');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => /\.(?:[cm]?[jt]s|json)$/.test(file)).sort();
    for (const file of files) hash.update(`${file}\n`).update(readFileSync(path.join(root, file)));
    program = hash.digest('hex');
  }
  return program;
}
