import { hash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * What a build records about itself for the next build and for the deploy step, in `_build/` of the
 * output (never routed to by the rewrite map):
 * - `manifest.tsv`: every site file with its size and SHA-1 (`fileHash`);
 * - `changed.txt`: files new or different since the previous build, one path a line;
 * - `removed.txt`: files the previous build had and this one has not.
 */
export const BUILD_FOLDER = '_build';
export const MANIFEST_FILE = `${BUILD_FOLDER}/manifest.tsv`;
export const CHANGED_FILE = `${BUILD_FOLDER}/changed.txt`;
export const REMOVED_FILE = `${BUILD_FOLDER}/removed.txt`;
/** The hash the manifest lists; its name heads the column. */
export const MANIFEST_HASH = 'sha1';
/** The header's columns before the hash's name. */
const HEADER_START = 'path\tsize\t';
export const MANIFEST_HEADER = `${HEADER_START}${MANIFEST_HASH}`;

/**
 * A file's hash as the manifest lists it (hex, as `sha1sum` prints it): what tells the next build
 * which files it can link unchanged, and a deploy which files differ. SHA-1, not MD5 (the S3 ETag it
 * listed until 2026-11): hashing every byte of the site was the largest cost of the render threads
 * after the file system calls, and SHA-1 is 1.7x MD5's speed on an x86-64 without SHA extensions,
 * 2.0-2.6x with them (SHA-256 is 2.4x with them, 0.9x without). S3 keeps the same digest, in
 * base64, for a file uploaded with `--checksum-algorithm SHA1`. Change detection between two of our
 * own builds asks for no resistance to collisions made on purpose.
 */
export function fileHash(data: Uint8Array): string {
  // One call per file (crypto.hash, Node 20.12): no Hash object per file.
  return hash(MANIFEST_HASH, data, 'hex');
}

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

/**
 * The entries of a built folder's manifest; none when it has none (a first build). A manifest whose
 * header names another hash (an older program's MD5) still lists the folder's files, so that the
 * next build knows which it removes, but with an empty hash: none equals a new file's, and every
 * file is written again once.
 */
export async function* readManifest(folder: string): AsyncGenerator<ManifestEntry> {
  const file = path.join(folder, MANIFEST_FILE);
  if (!existsSync(file)) return;
  const comparable = listsOurHash(manifestHashOf(folder));
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    // No path begins so: only the header does.
    if (line === '' || line.startsWith(HEADER_START)) continue;
    const [entryPath, size, listed] = line.split('\t');
    if (entryPath === undefined || size === undefined || listed === undefined) continue;
    yield { path: entryPath, size: Number(size), hash: comparable ? listed : '' };
  }
}

/**
 * The hash a built folder's manifest lists, as its header names it (`sha1`; `md5` from a program
 * before 2026-11); undefined when the folder has no manifest or it has no header.
 */
export function manifestHashOf(folder: string): string | undefined {
  const file = path.join(folder, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(256);
    const line = start.toString('utf8', 0, readSync(fd, start, 0, start.length, 0)).split('\n')[0]!;
    return line.startsWith(HEADER_START) ? line.slice(HEADER_START.length) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether a manifest whose header names `listed` (undefined: it has none) lists the hash `fileHash` gives. */
export function listsOurHash(listed: string | undefined): boolean {
  return listed === undefined || listed === MANIFEST_HASH;
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
