import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every file under a folder with the hash of its bytes, plus where a link points: to compare builds. */
export function snapshot(folder: string): { link: string | undefined; files: Record<string, string> } {
  let link: string | undefined;
  try {
    link = readlinkSync(folder);
  } catch {
    link = undefined;
  }
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return { link, files };
}

/**
 * What a build made of its records, to compare builds of the same records read from different files:
 * every file but `_build/build.json`, whose fingerprint covers the input files' bytes (a sync may
 * write the same records with other bytes).
 */
export function builtFromRecords(folder: string): Record<string, string> {
  const { files } = snapshot(folder);
  delete files['_build/build.json'];
  return files;
}

/**
 * Waits until the previous builds that the command line deletes in a process of its own are gone
 * from `folder` (the output's parent), so that a test can list what stays there.
 */
export async function backgroundRemovalsDone(folder: string, timeoutMs = 30_000): Promise<void> {
  const { readdirSync } = await import('node:fs');
  for (const started = Date.now(); readdirSync(folder).some((entry) => entry.includes('.trash-')); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`a previous build in ${folder} was not removed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
