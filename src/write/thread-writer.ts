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

  constructor(
    readonly root: string,
    private readonly previousDir: string | undefined,
    private readonly io: ThreadIO = nodeThreadIO,
  ) {}

  /**
   * Makes folders (relative to the root) before the files that go in them: a unit's folders, all of
   * them first (`unitFolders`), as the floor makes the tree's. One that exists already is fine.
   */
  makeFolders(folders: Iterable<string>): void {
    for (const folder of folders) this.makeFolder(path.join(this.root, folder));
  }

  write(relativePath: string, data: Uint8Array): void {
    const target = path.join(this.root, relativePath);
    this.intoFolder(target, () => this.io.writeFileSync(target, data));
    this.stats.written++;
    this.stats.bytesWritten += data.length;
  }

  /** Links the previous build's file at `relativePath`; copies it across file systems. */
  link(relativePath: string, size: number): void {
    const target = path.join(this.root, relativePath);
    const source = path.join(this.previousDir!, relativePath);
    this.intoFolder(target, () => {
      try {
        this.io.linkSync(source, target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
        this.io.copyFileSync(source, target);
      }
    });
    this.stats.linked++;
    this.stats.bytesLinked += size;
  }

  /**
   * Puts a file at `target` (`put`: a write or a link). A folder that was not made first (the fixed
   * unit's, or one a unit's folders missed) is made when the file system says it is missing, and the
   * file put again: no call per file to ask whether its folder exists.
   */
  private intoFolder(target: string, put: () => void): void {
    try {
      put();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw this.failure(target, error);
      this.makeFolder(path.dirname(target));
      try {
        put();
      } catch (again) {
        throw this.failure(target, again);
      }
    }
  }

  private makeFolder(folder: string): void {
    try {
      this.io.mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw this.failure(folder, error);
    }
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
