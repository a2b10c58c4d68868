import type { RegistrantDigest } from './registrant-packs.ts';
import { decodeSections, encodeSections } from './sections.ts';

/**
 * The digest of every registrant text in the base packs (id, hash, length), written with the base:
 * the next build compares its registrants with them to plan its packs (bundle/registrant-packs.ts)
 * without reading the packs themselves. The answerer never reads it.
 */
export function encodeRegistrantDigests(digests: readonly RegistrantDigest[]): Uint8Array {
  return encodeSections(
    {},
    {
      ids: Float64Array.from(digests, (digest) => digest.id),
      hashes: Float64Array.from(digests, (digest) => digest.hash),
      lengths: Uint32Array.from(digests, (digest) => digest.length),
    },
  );
}

export function decodeRegistrantDigests(bytes: Uint8Array, file: string): RegistrantDigest[] {
  const sections = decodeSections(bytes, file);
  const ids = sections.section('ids', Float64Array);
  const hashes = sections.section('hashes', Float64Array);
  const lengths = sections.section('lengths', Uint32Array);
  return Array.from(ids, (id, i) => ({ id, hash: hashes[i]!, length: lengths[i]! }));
}
