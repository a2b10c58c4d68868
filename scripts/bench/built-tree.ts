import { existsSync, opendirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A built folder as the floors see it: every file with its size, and every folder, parents first. */
export interface BuiltTree {
  files: { path: string; size: number }[];
  folders: string[];
}

/**
 * Walks a built tree (the build's bookkeeping folder `_build/` included: the build writes it too).
 * The floors call it before they start timing; it shares no code with the build.
 */
export function walkBuiltTree(dir: string): BuiltTree {
  const tree: BuiltTree = { files: [], folders: [] };
  walk(dir, '', tree);
  return tree;
}

/**
 * What a floor writes from, prepared before its timing: the built tree walked, and one buffer as long
 * as its largest file. The floor writes a new folder and deletes nothing: the bench deletes trees,
 * then lets the disk rest (recent-deletions.ts).
 */
export function floorSource(built: string, target: string): BuiltTree & { buffer: Buffer } {
  if (existsSync(target)) throw new Error(`${target} exists: the floor writes a new folder`);
  const tree = walkBuiltTree(built);
  return { ...tree, buffer: Buffer.alloc(tree.files.reduce((max, file) => Math.max(max, file.size), 0), 0x78) };
}

function walk(dir: string, relative: string, tree: BuiltTree): void {
  const handle = opendirSync(path.join(dir, relative));
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        tree.folders.push(child);
        walk(dir, child, tree);
      } else {
        tree.files.push({ path: child, size: statSync(path.join(dir, child)).size });
      }
    }
  } finally {
    handle.closeSync();
  }
}
