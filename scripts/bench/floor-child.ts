/**
 * The floor: what this machine's file system costs for the build's output on its own. It walks the
 * built tree (untimed), then writes the same paths with the same sizes from one preallocated buffer,
 * with mkdirSync and writeFileSync in one thread: no JSON, no SQLite, no hashing, no worker, no
 * promise per file, and no code of the build (nothing from src/), so that the build cannot make its
 * own floor look slow.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { floorSource } from './built-tree.ts';
import { reportChild } from './child-stats.ts';

const [built, target] = process.argv.slice(2);

const { files, folders, buffer } = floorSource(built!, target!);

await reportChild(async () => {
  let bytes = 0;
  mkdirSync(target!, { recursive: true });
  // Parents come before their children in a walk, so each folder is made once, without `recursive`.
  for (const folder of folders) mkdirSync(path.join(target!, folder));
  for (const file of files) {
    writeFileSync(path.join(target!, file.path), buffer.subarray(0, file.size));
    bytes += file.size;
  }
  return { files: files.length, bytes };
});
