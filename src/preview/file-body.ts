import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** A file of the built folder, read whole: the body of a 200. */
export interface FileBody {
  data: Buffer;
  modified: Date;
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
    const data = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < data.length) {
      const count = readSync(fd, data, read, data.length - read, read);
      if (count === 0) break; // shortened since the stat: send what is there, never uninitialised bytes
      read += count;
    }
    return { data: read === data.length ? data : data.subarray(0, read), modified: stats.mtime };
  } finally {
    closeSync(fd);
  }
}

/** ELOOP is O_NOFOLLOW meeting a symbolic link. */
function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
