import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
 * Copies a host's folders of the built folder `dir` into the folder `out`, each replacing the copy an
 * earlier emit left, so that no file of an older build stays beside the new ones. Each is copied
 * beside its place and renamed over it, as the files are.
 */
export function copyHostFolders(copies: HostCopy[], dir: string, out: string): string[] {
  return copies.map(({ from, to }) => {
    // Resolved, so that a folder named with its final slash (`public/bundle/`) is the folder itself.
    const target = path.resolve(out, to);
    const temporary = `${target}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    cpSync(path.join(dir, from), temporary, { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(temporary, target);
    return target;
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
