/**
 * Which registrant packs the query bundle writes (bundle/bundle-manifest.ts), decided while planning
 * from each registrant's digest (id, hash and length of its text) and the previous build's base:
 *
 * - a new base, cut into packs of about PACK_TEXT units of text by id, when there is no previous
 *   base, or when the registrants changed since it hold more than an eighth of its text;
 * - otherwise the previous base as it was (its files unchanged, so a deploy uploads none of them) and
 *   an overlay holding the registrants whose text is not the base's.
 *
 * So a night's changed registrants cost an overlay of their own texts, not a rewrite of every pack
 * that holds one of them; about every eighth of the base's text in changes, the base is written anew.
 * The layout of the packs depends on the builds before (the answers never do): the price of a small
 * nightly upload with few reads per answer (docs/query-bundle.md).
 */
export interface RegistrantDigest {
  id: number;
  /** `textHash` of its fields' JSON text. */
  hash: number;
  /** Length of that text, in UTF-16 units. */
  length: number;
}

export interface PackEntry {
  file: string;
  firstId: number;
  lastId: number;
}

export type PackPlan =
  /** A new base: the index of the first registrant (in id order) of each pack. */
  | { kind: 'new'; starts: number[] }
  /** The previous base kept, and the ids of the registrants for the overlay (none: no overlay). */
  | { kind: 'kept'; packs: PackEntry[]; overlay: number[] };

/** About this many UTF-16 units of registrant text a base pack: ten packs for the registry's 10 MB. */
export const PACK_TEXT = 1024 * 1024;
/** The changed registrants' share of the base's text past which a new base is written. */
const OVERLAY_SHARE = 1 / 8;

export function planRegistrantPacks(current: readonly RegistrantDigest[], previous: { packs: PackEntry[]; digests: readonly RegistrantDigest[] } | undefined): PackPlan {
  if (previous !== undefined && previous.packs.length > 0) {
    const base = new Map(previous.digests.map((digest) => [digest.id, digest]));
    const baseText = previous.digests.reduce((sum, digest) => sum + digest.length, 0);
    const overlay = current.filter((digest) => base.get(digest.id)?.hash !== digest.hash);
    if (overlay.reduce((sum, digest) => sum + digest.length, 0) <= baseText * OVERLAY_SHARE) {
      return { kind: 'kept', packs: previous.packs, overlay: overlay.map((digest) => digest.id) };
    }
  }
  const starts: number[] = [];
  let length = PACK_TEXT;
  current.forEach((digest, i) => {
    if (length >= PACK_TEXT) {
      starts.push(i);
      length = 0;
    }
    length += digest.length;
  });
  return { kind: 'new', starts };
}

/** The files a plan writes: the base packs and their digests, or the overlay. */
export function packFileCount(plan: PackPlan): number {
  return plan.kind === 'new' ? plan.starts.length + 1 : plan.overlay.length > 0 ? 1 : 0;
}

/**
 * A 53-bit hash of a text (cyrb53): two registrants' texts that differ share a hash once in 2^53,
 * and a shared hash would only serve the base's older text of one of them.
 */
export function textHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
