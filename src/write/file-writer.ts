import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';

export interface WriteStats {
  files: number;
  bytes: number;
}

/**
 * Writes files under one folder with bounded concurrency (p-limit). `write` waits while too many
 * writes are under way, so that a fast producer cannot pile the whole site up in memory. The first
 * failed write fails every later call and `finish`, naming the path.
 */
export class FileWriter {
  readonly stats: WriteStats = { files: 0, bytes: 0 };
  private readonly limit: LimitFunction;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly highWater: number;
  private failure: Error | undefined;

  constructor(
    readonly root: string,
    concurrency: number,
  ) {
    this.limit = pLimit(concurrency);
    this.highWater = concurrency * 4;
  }

  async createFolders(folders: readonly string[]): Promise<void> {
    for (const folder of folders) await mkdir(path.join(this.root, folder), { recursive: true });
  }

  async write(relativePath: string, body: string): Promise<void> {
    if (this.failure) throw this.failure;
    const task = this.limit(() => this.writeOne(relativePath, body));
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
    if (this.inFlight.size >= this.highWater) await Promise.race(this.inFlight);
  }

  /** Waits for every write under way; throws the first failure. */
  async finish(): Promise<WriteStats> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    return this.stats;
  }

  private async writeOne(relativePath: string, body: string): Promise<void> {
    if (this.failure) return;
    const target = path.join(this.root, relativePath);
    const data = Buffer.from(body, 'utf8');
    try {
      await writeFile(target, data);
      this.stats.files++;
      this.stats.bytes += data.length;
    } catch (error) {
      this.failure ??= new Error(`cannot write ${target}: ${(error as Error).message}`, { cause: error });
    }
  }
}
