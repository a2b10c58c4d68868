import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { decodeRegistrantDigests } from '../bundle/registrant-digests.ts';
import type { PackEntry, RegistrantDigest } from '../bundle/registrant-packs.ts';
import type { PreviousPacks } from '../render/bundle-files.ts';

/**
 * The previous build's query bundle, for the registrant packs a new one keeps: its manifest, and its
 * files read when asked. Undefined when that build has none (or one this program cannot read): the
 * new bundle then starts its packs afresh.
 */
export function previousBundle(previousDir: string): PreviousPacks | undefined {
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(previousDir, BUNDLE_MANIFEST), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
  return {
    manifest,
    read(file) {
      try {
        return readFileSync(path.join(previousDir, BUNDLE_FOLDER, file));
      } catch {
        return undefined;
      }
    },
  };
}

/** The previous build's base registrant packs and their digests, for the plan of the new ones; undefined when it has none readable. */
export function previousBase(previousDir: string): { packs: PackEntry[]; digests: RegistrantDigest[] } | undefined {
  const previous = previousBundle(previousDir);
  const bytes = previous?.read(previous.manifest.registrantDigests);
  if (previous === undefined || bytes === undefined || previous.manifest.format !== BUNDLE_FORMAT) return undefined;
  return { packs: previous.manifest.registrantPacks, digests: decodeRegistrantDigests(bytes, previous.manifest.registrantDigests) };
}
