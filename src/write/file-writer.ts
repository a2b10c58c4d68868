import * as fs from 'node:fs/promises';
import path from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';

/** The file system calls the writer makes: passed in, so that tests can make them fail. */
export interface WriterIO {
  writeFile(file: string, data: Uint8Array): Promise<void>;
  link(existing: string, file: string): Promise<void>;
  copyFile(source: string, file: string): Promise<void>;
  mkdir(folder: string, options: { recursive: true }): Promise<unknown>;
}

export const nodeIO: WriterIO = fs;

export interface WriteStats {
  /** Files written with new bytes. */
  written: number;
  bytesWritten: number;
  /** Files hard-linked from the previous build: same bytes, same inode, same modification time. */
  linked: number;
  bytesLinked: number;
}

/**
 * Puts files into one folder with bounded concurrency (p-limit): writes new bytes, or hard-links an
 * unchanged file from the previous build. Calls wait while too many operations are under way, so a
 * fast producer cannot pile the site up in memory. The first failure fails every later call and
 * `finish`, naming the path.
 */
export class FileWriter {
  readonly stats: WriteStats = { written: 0, bytesWritten: 0, linked: 0, bytesLinked: 0 };
  private readonly limit: LimitFunction;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly highWater: number;
  private failure: Error | undefined;
  /** Folders made lately: files come folder by folder, so a short memory saves nearly every mkdir. */
  private readonly madeFolders = new Map<string, Promise<unknown>>();

  constructor(
    readonly root: string,
    concurrency: number,
    private readonly io: WriterIO = nodeIO,
  ) {
    this.limit = pLimit(concurrency);
    this.highWater = concurrency * 4;
  }

  async createFolders(folders: readonly string[]): Promise<void> {
    for (const folder of folders) await this.folder(path.join(this.root, folder));
  }

  write(relativePath: string, data: Uint8Array): Promise<void> {
    return this.schedule(relativePath, async (target) => {
      await this.io.writeFile(target, data);
      this.stats.written++;
      this.stats.bytesWritten += data.length;
    });
  }

  /** Links `source` (a file of the previous build) at `relativePath`; copies it across file systems. */
  link(relativePath: string, source: string, size: number): Promise<void> {
    return this.schedule(relativePath, async (target) => {
      await this.io.link(source, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EXDEV' || error.code === 'EPERM' || error.code === 'EMLINK') return this.io.copyFile(source, target);
        throw error;
      });
      this.stats.linked++;
      this.stats.bytesLinked += size;
    });
  }

  /** Waits for every operation under way, whatever their outcome: nothing writes into the folder after. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }

  /** Waits for every operation under way; throws the first failure. */
  async finish(): Promise<WriteStats> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    return this.stats;
  }

  private async schedule(relativePath: string, operation: (target: string) => Promise<void>): Promise<void> {
    if (this.failure) throw this.failure;
    const target = path.join(this.root, relativePath);
    const task = this.limit(async () => {
      if (this.failure) return;
      try {
        await this.folder(path.dirname(target));
        await operation(target);
      } catch (error) {
        this.failure ??= new Error(`cannot write ${target}: ${(error as Error).message}`, { cause: error });
      }
    });
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
    if (this.inFlight.size >= this.highWater) await Promise.race(this.inFlight);
  }

  /** Makes a folder (and its parents) once; the folders of the files under way are remembered. */
  private folder(folder: string): Promise<unknown> {
    let made = this.madeFolders.get(folder);
    if (made === undefined) {
      made = this.io.mkdir(folder, { recursive: true });
      this.madeFolders.set(folder, made);
      if (this.madeFolders.size > 256) this.madeFolders.delete(this.madeFolders.keys().next().value!);
    }
    return made;
  }
}
