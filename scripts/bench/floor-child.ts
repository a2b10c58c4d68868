/**
 * The floor: the same tree as a build (same folders, names and sizes, read from its manifest) written
 * by the same writer from one preallocated buffer, in the build's order (the writer makes each folder
 * as its first file comes, as in a build). No JSON, no SQLite, no hashing: what the file system costs
 * on its own.
 */
import { rmSync } from 'node:fs';
import { FileWriter } from '../../src/write/file-writer.ts';
import { readManifest } from '../../src/write/manifest.ts';
import { reportChild } from './child-stats.ts';

const [built, target, concurrency] = process.argv.slice(2);
const entries: { path: string; size: number }[] = [];
for await (const entry of readManifest(built!)) entries.push({ path: entry.path, size: entry.size });
const buffer = Buffer.alloc(entries.reduce((max, entry) => Math.max(max, entry.size), 0), 0x78);
rmSync(target!, { recursive: true, force: true });

await reportChild(async () => {
  const writer = new FileWriter(target!, Number(concurrency));
  for (const entry of entries) await writer.write(entry.path, buffer.subarray(0, entry.size));
  const stats = await writer.finish();
  return { files: stats.written, bytes: stats.bytesWritten };
});
rmSync(target!, { recursive: true, force: true });
