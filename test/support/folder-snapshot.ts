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
