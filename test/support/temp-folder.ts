import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh folder under the OS temp folder, and a function that removes it. */
export function tempFolder(prefix = 'mirror-test-'): { path: string; remove(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  return { path: folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
