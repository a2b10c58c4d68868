import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HostCopy, HostFile } from './host-adapter.ts';

/**
 * Writes a host's files: one file goes to `out` itself, several into the folder `out`. Each is
 * written beside its place and renamed over it, so a server reloading mid-write never reads half.
 */
export function writeHostFiles(files: HostFile[], out: string): string[] {
  const targets = files.length === 1 ? [{ file: files[0]!, to: out }] : files.map((file) => ({ file, to: path.join(out, file.name) }));
  for (const { file, to } of targets) {
    mkdirSync(path.dirname(to), { recursive: true });
    const temporary = `${to}.${process.pid}.tmp`;
    writeFileSync(temporary, file.text);
    renameSync(temporary, to);
  }
  return targets.map(({ to }) => to);
}

/**
 * Copies a host's folders into the folder `out`, each whole: copied beside its place, then swapped in
 * for the copy of an earlier emit, so that no file of an older build is left in it.
 */
export function copyHostFolders(copies: HostCopy[], out: string): string[] {
  return copies.map(({ name, from }) => {
    // resolve, not join: a name may end in `/` (it names a folder), the copy's neighbours may not.
    const to = path.resolve(out, name);
    const temporary = `${to}.${process.pid}.tmp`;
    const previous = `${to}.${process.pid}.old`;
    rmSync(temporary, { recursive: true, force: true });
    // dereference: a built folder may reach its files through links (the switch of the build, incremental rebuilds).
    cpSync(from, temporary, { recursive: true, dereference: true });
    if (existsSync(to)) renameSync(to, previous);
    renameSync(temporary, to);
    rmSync(previous, { recursive: true, force: true });
    return to;
  });
}

/** Parses `--listen`: `port`, `address:port` or `[ipv6]:port`. */
export function parseListen(text: string): { address: string; port: number } | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?([0-9]{1,5})$/.exec(text);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { address: match[1] ?? '0.0.0.0', port };
}
