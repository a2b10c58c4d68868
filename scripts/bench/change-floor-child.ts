/**
 * The floor of a rebuild after a change: what this machine's file system costs for what such a
 * rebuild must do at least, given that the previous output stays intact until the switch: a new
 * folder with every folder of the tree, the unchanged files linked from the built folder, and the
 * changed ones (its `_build/changed.txt`) written from one preallocated buffer, in one thread. Like
 * floor-child.ts, no code of the build.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { floorSource } from './built-tree.ts';
import { reportChild } from './child-stats.ts';

const [built, target] = process.argv.slice(2);
const changed = new Set(readFileSync(path.join(built!, '_build/changed.txt'), 'utf8').split('\n'));

const { files, folders, buffer } = floorSource(built!, target!);

await reportChild(async () => {
  let written = 0;
  let linked = 0;
  mkdirSync(target!, { recursive: true });
  for (const folder of folders) mkdirSync(path.join(target!, folder));
  for (const file of files) {
    if (changed.has(file.path)) {
      writeFileSync(path.join(target!, file.path), buffer.subarray(0, file.size));
      written++;
    } else {
      linkSync(path.join(built!, file.path), path.join(target!, file.path));
      linked++;
    }
  }
  return { written, linked };
});
