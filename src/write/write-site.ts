import path from 'node:path';
import { recordKind } from '../plan/site-layout.ts';
import type { FileBatch, RemovedBatch } from '../produce/file-batch.ts';
import { BUILD_FOLDER, CHANGED_FILE, LineFile, REMOVED_FILE, manifestLine } from './manifest.ts';
import { FileWriter, type WriteStats, type WriterIO } from './file-writer.ts';

export interface SiteWriteStats extends WriteStats {
  files: number;
  bytes: number;
  removed: number;
  /** Record files written or linked, by route (`clients`, `registrants`): for the check that records in are records out. */
  recordFiles: Record<string, number>;
}

export interface SiteWriteOptions {
  root: string;
  /** The previous build's folder: unchanged files are hard-linked from it. */
  previousDir: string | undefined;
  concurrency: number;
  onProgress?: (files: number) => void;
  io?: WriterIO;
}

/**
 * Puts the rendered site into the new build folder: new or changed files are written, unchanged ones
 * linked from the previous build (so they keep their inode and modification time, and rsync or
 * `aws s3 sync` skip them), and the manifest and change lists are recorded for the deploy step.
 */
export async function writeSite(batches: AsyncIterable<FileBatch | RemovedBatch>, options: SiteWriteOptions): Promise<SiteWriteStats> {
  const writer = new FileWriter(options.root, options.concurrency, options.io);
  await writer.createFolders([BUILD_FOLDER]);
  const manifest = LineFile.manifest(options.root);
  const changed = new LineFile(path.join(options.root, CHANGED_FILE));
  const removed = new LineFile(path.join(options.root, REMOVED_FILE));
  let files = 0;
  let bytes = 0;
  let removedCount = 0;
  const recordFiles: Record<string, number> = {};

  try {
    for await (const batch of batches) {
      if (batch.kind === 'removed') {
        for (const removedPath of batch.paths) await removed.add(removedPath);
        removedCount += batch.paths.length;
        continue;
      }
      let offset = 0;
      for (const [i, filePath] of batch.paths.entries()) {
        const size = batch.sizes[i]!;
        if (batch.unchanged[i] && options.previousDir !== undefined) {
          await writer.link(filePath, path.join(options.previousDir, filePath), size);
        } else {
          await writer.write(filePath, batch.data.subarray(offset, offset + size));
          offset += size;
          await changed.add(filePath);
        }
        await manifest.add(manifestLine({ path: filePath, size, hash: batch.hashes[i]! }));
        bytes += size;
        const kind = recordKind(filePath);
        if (kind !== undefined) recordFiles[kind] = (recordFiles[kind] ?? 0) + 1;
      }
      files += batch.paths.length;
      options.onProgress?.(files);
    }
  } catch (error) {
    // Nothing may still be writing when the caller removes the folder: a write landing in a folder
    // being deleted makes the deletion fail (ENOTEMPTY) and hides the first error.
    await writer.settle();
    await Promise.allSettled([manifest.close(), changed.close(), removed.close()]);
    throw error;
  }

  const stats = await writer.finish();
  await Promise.all([manifest.close(), changed.close(), removed.close()]);
  return { ...stats, files, bytes, removed: removedCount, recordFiles };
}
