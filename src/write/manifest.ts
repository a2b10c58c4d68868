import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, type WriteStream } from 'node:fs';
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
const MANIFEST_HEADER = 'path\tsize\tmd5';

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

/** A text file written line by line, waiting when the stream is full. */
export class LineFile {
  private readonly stream: WriteStream;
  private buffered: string[] = [];
  private bufferedLength = 0;

  constructor(file: string, header?: string) {
    this.stream = createWriteStream(file);
    if (header !== undefined) this.buffered.push(header);
  }

  static manifest(root: string): LineFile {
    return new LineFile(path.join(root, MANIFEST_FILE), MANIFEST_HEADER);
  }

  async add(line: string): Promise<void> {
    this.buffered.push(line);
    this.bufferedLength += line.length;
    if (this.bufferedLength >= 1 << 16) await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const text = `${this.buffered.join('\n')}\n`;
    this.buffered = [];
    this.bufferedLength = 0;
    // events.once rejects if the stream fails meanwhile.
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
}

export function manifestLine(entry: ManifestEntry): string {
  return `${entry.path}\t${entry.size}\t${entry.hash}`;
}
