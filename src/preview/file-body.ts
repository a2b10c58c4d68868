import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** A file of the built folder, read whole: the body of a 200. */
export interface FileBody {
  data: Buffer;
  /** The file's mtime, in milliseconds (as `Stats.mtimeMs`). */
  modifiedMs: number;
  /**
   * Hands the memory of `data` back for a later read. Call it once the body is sent (the response's
   * 'finish'), never before: until then the socket may still be writing from it. Never calling it is
   * safe: the memory is then collected as any other.
   */
  release(): void;
}

/**
 * Reads a file the map chose, or undefined when there is none to serve: absent, not a regular file,
 * or a symbolic link (as serve-handler with `symlinks: false`: a link could point outside the folder).
 *
 * Synchronous on purpose, as nginx reads files inside its event loop: the bodies are pages of 25
 * records or one record (tens of KB, in the page cache once read), and each asynchronous call is a
 * round trip through libuv's thread pool that costs more than the read itself. Open, stat, read and
 * close this way take about 20 µs; the same calls through the pool (serve-handler's lstat and read
 * stream) held the preview to a third of its throughput (BENCHMARKS.md).
 */
export function readFileBody(file: string): FileBody | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO would otherwise block the open, and the server with it; it is not a file.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (isAbsent(error)) return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const memory = takeMemory(stats.size);
    const data = memory.subarray(0, stats.size);
    let read = 0;
    while (read < data.length) {
      const count = readSync(fd, data, read, data.length - read, read);
      if (count === 0) break; // shortened since the stat: send what is there, never uninitialised bytes
      read += count;
    }
    return { data: read === data.length ? data : data.subarray(0, read), modifiedMs: stats.mtimeMs, release: releaser(memory) };
  } finally {
    closeSync(fd);
  }
}

/** ELOOP is O_NOFOLLOW meeting a symbolic link. */
function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

/**
 * Memory for bodies, reused once a response is sent. A new buffer per body cost more than the read:
 * the allocator handed back fresh pages, the read page-faulted into each, and the collector freed it
 * again. Reusing it halved the kernel's time per request and cut the preview's CPU time per list page
 * by about a third. Bodies are still read on every request; only the memory they are read into is kept.
 */
const REUSED_SIZE = 64 * 1024;
/** Enough for the bodies of many connections in flight at once; beyond it, memory is left to the collector. */
const REUSED_COUNT = 64;
const free: Buffer[] = [];

/** At least `size` bytes: reused memory when the body fits in it, else a buffer of its own. */
function takeMemory(size: number): Buffer {
  if (size > REUSED_SIZE) return Buffer.allocUnsafeSlow(size);
  // allocUnsafeSlow: never a slice of Node's shared pool, whose other slices belong to others.
  return free.pop() ?? Buffer.allocUnsafeSlow(REUSED_SIZE);
}

/** Gives the memory back once however often it is called: twice would hand it to two bodies at once. */
function releaser(memory: Buffer): () => void {
  let given = false;
  return () => {
    if (given) return;
    given = true;
    if (memory.length === REUSED_SIZE && free.length < REUSED_COUNT) free.push(memory);
  };
}
