import * as fs from 'node:fs';
import path from 'node:path';

/**
 * The file system calls a render thread makes, synchronous: a thread that renders and writes in turn
 * has nothing to overlap, and a promise per file cost more than the write (issue 13). Passed in, so
 * that tests can make them fail.
 */
export interface ThreadIO {
  writeFileSync(file: string, data: Uint8Array): void;
  linkSync(existing: string, file: string): void;
  copyFileSync(source: string, file: string): void;
  mkdirSync(folder: string, options: { recursive: true }): unknown;
}

export const nodeThreadIO: ThreadIO = fs;

export interface WriteStats {
  /** Files written with new bytes. */
  written: number;
  bytesWritten: number;
  /** Files hard-linked from the previous build: same bytes, same inode, same modification time. */
  linked: number;
  bytesLinked: number;
}

/**
 * Puts one render thread's files into the new build folder: writes new bytes, or hard-links a file
 * the previous build has with the same bytes, so that it keeps its inode and modification time and
 * rsync or `aws s3 sync` skip it. A failure names the path.
 */
export class ThreadWriter {
  readonly stats: WriteStats = { written: 0, bytesWritten: 0, linked: 0, bytesLinked: 0 };
  /**
   * Folders made lately: a unit's files come folder by folder, or (a list's unit with the lists of a
   * filter's values) from a thousand folders in turn, so this memory saves nearly every mkdir.
   */
  private readonly madeFolders = new Set<string>();

  constructor(
    readonly root: string,
    private readonly previousDir: string | undefined,
    private readonly io: ThreadIO = nodeThreadIO,
  ) {}

  write(relativePath: string, data: Uint8Array): void {
    const target = this.target(relativePath);
    try {
      this.io.writeFileSync(target, data);
    } catch (error) {
      throw this.failure(target, error);
    }
    this.stats.written++;
    this.stats.bytesWritten += data.length;
  }

  /** Links the previous build's file at `relativePath`; copies it across file systems. */
  link(relativePath: string, size: number): void {
    const target = this.target(relativePath);
    const source = path.join(this.previousDir!, relativePath);
    try {
      try {
        this.io.linkSync(source, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
        this.io.copyFileSync(source, target);
      }
    } catch (error) {
      throw this.failure(target, error);
    }
    this.stats.linked++;
    this.stats.bytesLinked += size;
  }

  /** The absolute path of a file, its folder made if this thread has not made it lately. */
  private target(relativePath: string): string {
    const target = path.join(this.root, relativePath);
    const folder = path.dirname(target);
    if (!this.madeFolders.has(folder)) {
      try {
        this.io.mkdirSync(folder, { recursive: true });
      } catch (error) {
        throw this.failure(folder, error);
      }
      if (this.madeFolders.size >= 8192) this.madeFolders.clear();
      this.madeFolders.add(folder);
    }
    return target;
  }

  private failure(target: string, error: unknown): Error {
    return new Error(`cannot write ${target}: ${(error as Error).message}`, { cause: error });
  }
}

/** A text file written line by line from one thread, in blocks of 64 KiB. */
export class LineWriter {
  private readonly fd: number;
  private buffered: string[] = [];
  private length = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  add(line: string): void {
    this.buffered.push(line);
    this.length += line.length + 1;
    if (this.length >= 1 << 16) this.flush();
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }

  private flush(): void {
    if (this.buffered.length === 0) return;
    fs.writeSync(this.fd, `${this.buffered.join('\n')}\n`);
    this.buffered = [];
    this.length = 0;
  }
}
