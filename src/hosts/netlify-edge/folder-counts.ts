import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface FolderCounts {
  /** Files at any depth. */
  files: number;
  /** The most files any one folder holds directly: Netlify limits that, not the total. */
  mostInOneFolder: number;
}

/** Counts a folder's files on disk, as a deploy uploads them. */
export function folderCounts(dir: string): FolderCounts {
  const counts = { files: 0, mostInOneFolder: 0 };
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let here = 0;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(folder, entry.name));
      else here++;
    }
    counts.files += here;
    counts.mostInOneFolder = Math.max(counts.mostInOneFolder, here);
  }
  return counts;
}
