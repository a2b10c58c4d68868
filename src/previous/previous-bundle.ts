import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, decodeManifest, registrantPackFile, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { decodeChunkDirectory, type ChunkDirectory } from '../bundle/chunk-directory.ts';
import { checkContentNow, hashInName } from '../bundle/content-names.ts';
import { decodeOverlay, type OverlayFields } from '../bundle/overlay-file.ts';
import type { PreviousBundle } from '../render/registrant-overlay.ts';

/**
 * The query bundle of the previous build, as the next build's bundle reads it (render/registrant-overlay.ts):
 * its client chunks (from their directory) and registrant packs by first id, each read only when asked
 * for and checked against the hash in its name, and its overlay. Undefined when the previous build has
 * no bundle this program can read (none, another format, a manifest, chunk directory or overlay that
 * does not parse or is damaged): the new bundle is then written fresh.
 */
export function openPreviousBundle(previousDir: string | undefined): PreviousBundle | undefined {
  if (previousDir === undefined) return undefined;
  let manifest: BundleManifest;
  try {
    manifest = decodeManifest(readFileSync(path.join(previousDir, BUNDLE_MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest.format !== BUNDLE_FORMAT || !Array.isArray(manifest.registrantPacks?.firstIds)) return undefined;
  const folder = path.join(previousDir, BUNDLE_FOLDER);
  // Its chunks' directory, which names them (a damaged one: no previous bundle).
  const directoryBytes = checkedBytes(folder, manifest.chunks?.file);
  if (directoryBytes === undefined) return undefined;
  let directory: ChunkDirectory;
  try {
    directory = decodeChunkDirectory(directoryBytes, manifest.chunks.file);
  } catch {
    return undefined;
  }
  const chunks = indexOf(directory.firstIds);
  const packs = indexOf(manifest.registrantPacks.firstIds);
  const hashOf = (name: string) => hashInName(name)!;
  // Its overlay, whose registrants are candidates for the next (a damaged one: no previous bundle).
  let overlay: OverlayFields = {};
  if (manifest.overlay !== undefined) {
    const bytes = checkedBytes(folder, typeof manifest.overlay.file === 'string' ? manifest.overlay.file : undefined);
    if (bytes === undefined) return undefined;
    try {
      overlay = decodeOverlay(bytes, manifest.overlay.file);
    } catch {
      return undefined;
    }
  }
  return {
    overlay,
    chunkHash: (firstId) => nameOf(chunks, firstId, (k) => hashOf(directory.file(k))),
    chunk: (firstId) => checkedBytes(folder, nameOf(chunks, firstId, (k) => directory.file(k))),
    packHash: (firstId) => nameOf(packs, firstId, (k) => hashOf(registrantPackFile(manifest.registrantPacks, k))),
    pack: (firstId) => checkedBytes(folder, nameOf(packs, firstId, (k) => registrantPackFile(manifest.registrantPacks, k))),
  };
}

function indexOf(firstIds: ArrayLike<number>): Map<number, number> {
  return new Map(Array.from(firstIds, (id, k) => [id, k]));
}

function nameOf(index: ReadonlyMap<number, number>, firstId: number, name: (k: number) => string): string | undefined {
  const k = index.get(firstId);
  return k === undefined ? undefined : name(k);
}

/** A file's bytes when they are what its name says; undefined when it is missing, damaged or its name holds no hash (never reused). */
function checkedBytes(folder: string, name: string | undefined): Uint8Array | undefined {
  if (name === undefined || hashInName(name) === undefined) return undefined;
  try {
    const bytes = readFileSync(path.join(folder, name));
    checkContentNow(name, bytes);
    return bytes;
  } catch {
    return undefined;
  }
}
