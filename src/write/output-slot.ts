import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { BuildBusyError, OptionsError } from '../errors.ts';
import { tryExclusiveLock, type ExclusiveLock } from '../store/exclusive-lock.ts';
import { MAP_FILE } from '../plan/rewrite-map.ts';

/**
 * Where a build writes, and how it replaces the previous output atomically.
 *
 * The output path (`--out dist`) is a symbolic link to a build folder beside it
 * (`.dist.build-<id>`). A build writes a new folder, then points the link at it with one rename(2),
 * which is atomic: at every moment, killed or not, `dist` is either the previous build or the new
 * one, complete. The previous folder is kept until the next switch (`.dist.previous` points at it):
 * a preview reading it when the switch came goes on reading it until it has moved to the new one
 * (issue 36), on every platform, with no lock to hold. The switch after deletes it. Leftovers of a
 * killed build (its folder, its store) are deleted by the next build, which says so. One build at a
 * time holds `.dist.lock.sqlite`, a lock the kernel releases when its holder dies.
 */
export interface OutputSlot {
  /** The output path as the user named it, absolute. */
  out: string;
  /** The new build folder, to write into. */
  buildDir: string;
  /** Where the build's SQLite store lives while it runs. */
  storeFile: string;
  /** The folder of the current output, if any: unchanged files are linked from it. */
  previousDir: string | undefined;
  /** What an interrupted build had left beside the output, removed before this one started. */
  leftovers: string[];
  /**
   * Makes the new folder the output, keeps the previous one (for readers still on it) and removes the
   * one kept before it: before returning (`wait`), or in a process of its own that outlives this one
   * (`background`): on this kind of disk, deleting a build of 200,000 files takes as long as writing
   * it, and nothing serves it any more.
   */
  commit(removal?: 'wait' | 'background'): Promise<void>;
  /** Removes the new folder; the previous output stays as it was. */
  abandon(): Promise<void>;
}

export async function openOutputSlot(outPath: string): Promise<OutputSlot> {
  const out = path.resolve(outPath);
  const parent = path.dirname(out);
  const name = path.basename(out);
  await mkdir(parent, { recursive: true });
  const previous = await inspectPrevious(out);
  const lock = takeLock(path.join(parent, `.${name}.lock.sqlite`), out);
  const keptLink = path.join(parent, `.${name}.previous`);
  const kept = await linkTarget(keptLink);
  const leftovers = await removeLeftovers(parent, name, [previous.kind === 'link' ? previous.target : undefined, kept]);

  const id = `${Date.now().toString(36)}-${process.pid}`;
  const buildDir = path.join(parent, `.${name}.build-${id}`);
  await mkdir(buildDir);

  return {
    out,
    buildDir,
    storeFile: path.join(parent, `.${name}.store-${id}.sqlite`),
    previousDir: previous.kind === 'link' ? previous.target : previous.kind === 'folder' ? out : undefined,
    leftovers,
    async commit(removal = 'wait') {
      const link = path.join(parent, `.${name}.link-${id}`);
      await symlink(path.basename(buildDir), link, 'dir');
      if (previous.kind === 'folder') {
        // A plain folder cannot be swapped atomically: move it aside first (once; later builds swap links).
        await rename(out, path.join(parent, `.${name}.build-${id}-previous`));
      }
      await rename(link, out);
      const old = previous.kind === 'link' && previous.ours ? previous.target : previous.kind === 'folder' ? path.join(parent, `.${name}.build-${id}-previous`) : undefined;
      // The previous build stays, named by `.<out>.previous`; the one kept before it goes.
      const keptBefore = kept !== undefined && kept !== old && kept !== buildDir && existsSync(kept) ? kept : undefined;
      if (old !== undefined) {
        const keptNext = path.join(parent, `.${name}.previous-${id}`);
        await symlink(path.basename(old), keptNext, 'dir');
        await rename(keptNext, keptLink);
      } else if (kept !== undefined) {
        rmSync(keptLink, { force: true });
      }
      if (keptBefore !== undefined && removal === 'background') {
        // Out of the way at once (the next build removes it, should this process die first), then deleted.
        const trash = path.join(parent, `.${name}.trash-${id}`);
        await rename(keptBefore, trash);
        removeInBackground(trash);
      } else if (keptBefore !== undefined) {
        removeTree(keptBefore);
      }
      lock.release();
    },
    async abandon() {
      removeTree(buildDir);
      lock.release();
    },
  };
}

type Previous = { kind: 'none' } | { kind: 'link'; target: string; ours: boolean } | { kind: 'folder' };

async function inspectPrevious(out: string): Promise<Previous> {
  const info = await lstat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return { kind: 'none' };
  if (info.isSymbolicLink()) {
    const target = path.resolve(path.dirname(out), await readlink(out));
    const ours = path.dirname(target) === path.dirname(out) && path.basename(target).startsWith(`.${path.basename(out)}.build-`);
    return { kind: 'link', target, ours };
  }
  if (info.isDirectory()) {
    const entries = await readdir(out);
    if (entries.length === 0 || existsSync(path.join(out, MAP_FILE))) return { kind: 'folder' };
    throw new OptionsError(`--out ${out} is a folder that this tool did not build; refusing to replace it`);
  }
  throw new OptionsError(`--out ${out} is a file; it must be a folder (or not exist yet)`);
}

/** Where a symbolic link points, resolved; undefined when there is no such link. */
async function linkTarget(link: string): Promise<string | undefined> {
  try {
    return path.resolve(path.dirname(link), await readlink(link));
  } catch {
    return undefined;
  }
}

/**
 * Deletes what interrupted builds left: their folders, stores and links (and the PID file that older
 * versions used as a lock); never the current output nor the previous one kept. Returns the names removed.
 */
async function removeLeftovers(parent: string, name: string, keep: (string | undefined)[]): Promise<string[]> {
  const prefix = `.${name}.`;
  const removed: string[] = [];
  for (const entry of await readdir(parent)) {
    if (!entry.startsWith(prefix)) continue;
    const rest = entry.slice(prefix.length);
    const kind = rest.split('-')[0];
    const full = path.join(parent, entry);
    if (keep.includes(full)) continue;
    // A `previous-<id>` link is a killed switch's; `previous` itself is the kept build's name.
    if (kind === 'build' || kind === 'link' || kind === 'trash' || kind?.startsWith('store') || rest === 'lock' || rest.startsWith('previous-')) {
      removeTree(full);
      removed.push(entry);
    }
  }
  return removed;
}

/** One build at a time per output: a second one would delete the first one's folder as a leftover. */
function takeLock(file: string, out: string): ExclusiveLock {
  const lock = tryExclusiveLock(file);
  if (lock === undefined) {
    throw new BuildBusyError(`another build is writing ${out} right now; run this one again when it has finished (its output stays as it is)`);
  }
  return lock;
}

/**
 * Deletes a build folder. The synchronous form walks one folder at a time; the promise form starts
 * an unlink for every entry of a folder at once, which took a gigabyte of memory on a folder of
 * 134,719 record files.
 */
function removeTree(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/** Deletes a folder from a detached process: the build returns while it runs. */
function removeInBackground(folder: string): void {
  const program = `require('node:fs').rmSync(${JSON.stringify(folder)}, { recursive: true, force: true })`;
  spawn(process.execPath, ['-e', program], { detached: true, stdio: 'ignore' }).unref();
}
