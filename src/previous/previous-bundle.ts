import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, decodeManifest, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { decodeRecordDirectory, type DirectoryKind, type RecordDirectory } from '../bundle/record-directory.ts';
import { checkContentNow, hashInName } from '../bundle/content-names.ts';
import { decodeOverlay, type OverlayFields } from '../bundle/overlay-file.ts';
import { reusableRecordTexts, type RecordTexts } from '../bundle/record-texts.ts';
import { upperBound } from '../bundle/sorted-arrays.ts';
import type { PreviousBundle } from '../render/registrant-overlay.ts';

/**
 * The query bundle of the previous build, as the next build's bundle reads it (render/registrant-overlay.ts):
 * its client chunks and registrant packs by first id (from their directories), each read only when
 * asked for and checked against the hash in its name, and its overlay. Undefined when the previous
 * build has no bundle this program can read (none, another format, a manifest, directory or overlay
 * that does not parse or is damaged): the new bundle is then written fresh.
 */
export function openPreviousBundle(previousDir: string | undefined): PreviousBundle | undefined {
  if (previousDir === undefined) return undefined;
  let manifest: BundleManifest;
  try {
    manifest = decodeManifest(readFileSync(path.join(previousDir, BUNDLE_MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest.format !== BUNDLE_FORMAT) return undefined;
  const folder = path.join(previousDir, BUNDLE_FOLDER);
  // The chunks' and the packs' directories, which name them (a damaged one: no previous bundle).
  const chunks = readDirectory(folder, 'chunks', manifest.chunks?.file);
  const packs = readDirectory(folder, 'packs', manifest.registrantPacks?.file);
  if (chunks === undefined || packs === undefined) return undefined;
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
    chunkHash: (firstId) => mapped(chunks.fileOf(firstId), hashOf),
    chunkHolding: (id) => chunks.fileHolding(id),
    chunk: (firstId) => checkedBytes(folder, chunks.fileOf(firstId)),
    packHash: (firstId) => mapped(packs.fileOf(firstId), hashOf),
    registrantText: registrantTexts(folder, packs),
  };
}

/**
 * A registrant's text from the previous pack whose ids hold it (the last that starts at or before
 * its id). The last pack read is kept decoded: the build asks in ascending id, pack after pack.
 */
function registrantTexts(folder: string, packs: PreviousDirectory): (id: number) => string | undefined {
  let kept: { name: string; texts: RecordTexts | undefined } | undefined;
  return (id) => {
    const name = packs.fileHolding(id);
    if (name === undefined) return undefined;
    if (kept?.name !== name) {
      const bytes = checkedBytes(folder, name);
      kept = { name, texts: bytes === undefined ? undefined : reusableRecordTexts(bytes, name) };
    }
    const at = kept.texts?.find(id) ?? -1;
    return at < 0 ? undefined : kept.texts!.text(at);
  };
}

/** A directory of the previous bundle: the file of a first id, and the file whose ids would hold an id. */
interface PreviousDirectory {
  fileOf(firstId: number): string | undefined;
  fileHolding(id: number): string | undefined;
}

/** A directory of the previous bundle, by first id: undefined when it is missing, damaged or does not decode. */
function readDirectory(folder: string, kind: DirectoryKind, name: string | undefined): PreviousDirectory | undefined {
  const bytes = checkedBytes(folder, name);
  if (bytes === undefined) return undefined;
  let directory: RecordDirectory;
  try {
    directory = decodeRecordDirectory(kind, bytes, name!);
  } catch {
    return undefined;
  }
  const index = new Map(Array.from(directory.firstIds, (id, k) => [id, k]));
  return {
    fileOf(firstId) {
      const k = index.get(firstId);
      return k === undefined ? undefined : directory.file(k);
    },
    fileHolding(id) {
      const k = upperBound(directory.firstIds, id) - 1;
      return k < 0 ? undefined : directory.file(k);
    },
  };
}

function mapped<T>(value: string | undefined, map: (value: string) => T): T | undefined {
  return value === undefined ? undefined : map(value);
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
