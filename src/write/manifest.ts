import { createReadStream, existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * What a build records about itself for the next build and for the deploy step, in `_build/` of the
 * output (never routed to by the rewrite map):
 * - `manifest.tsv`: every site file with its size and MD5 (the ETag S3 gives a file uploaded whole);
 * - `changed.txt`: files new or different since the previous build, one path a line;
 * - `removed.txt`: files the previous build had and this one has not.
 */
export const BUILD_FOLDER = '_build';
export const MANIFEST_FILE = `${BUILD_FOLDER}/manifest.tsv`;
export const CHANGED_FILE = `${BUILD_FOLDER}/changed.txt`;
export const REMOVED_FILE = `${BUILD_FOLDER}/removed.txt`;
export const MANIFEST_HEADER = 'path\tsize\tmd5';

/**
 * Empties the change lists of a built folder: a build that found its output up to date changed
 * nothing, and a deploy step reading them must upload and delete nothing. Each list is replaced
 * whole (written beside, then renamed), so a reader sees the old list or the empty one.
 */
export function clearChangeLists(folder: string): void {
  for (const list of [CHANGED_FILE, REMOVED_FILE]) {
    const file = path.join(folder, list);
    writeFileSync(`${file}.new`, '');
    renameSync(`${file}.new`, file);
  }
}

export interface ManifestEntry {
  path: string;
  size: number;
  hash: string;
}

/** The entries of a built folder's manifest; none when it has none (a first build). */
export async function* readManifest(folder: string): AsyncGenerator<ManifestEntry> {
  const file = path.join(folder, MANIFEST_FILE);
  if (!existsSync(file)) return;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '' || line === MANIFEST_HEADER) continue;
    const [entryPath, size, hash] = line.split('\t');
    if (entryPath === undefined || size === undefined || hash === undefined) continue;
    yield { path: entryPath, size: Number(size), hash };
  }
}

/** The same entries in arrays of `size`, for loading into SQLite a transaction at a time. */
export async function* readManifestBatches(folder: string, size = 5000): AsyncGenerator<ManifestEntry[]> {
  let batch: ManifestEntry[] = [];
  for await (const entry of readManifest(folder)) {
    batch.push(entry);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export function manifestLine(entry: ManifestEntry): string {
  return `${entry.path}\t${entry.size}\t${entry.hash}`;
}
