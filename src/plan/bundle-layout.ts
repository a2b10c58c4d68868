/**
 * How the query bundle cuts the clients (in id order) into files, decided from the ids alone so that
 * a night's change rewrites few of them (issue 32: the nightly change at most 5 % of the bytes).
 *
 * - Chunks of client texts, about 32 clients each, are cut where an id's hash says so (content-defined
 *   chunking, as rsync and backup tools cut files): a client added or removed changes its own chunk,
 *   never the cut of the others. A page of 25 clients in any order reads at most 25 small chunks.
 * - Index segments are runs of a power of two of clients (segmentRanges), so that new clients (higher
 *   ids) change the small segments at the end only.
 */
/** Past `min`, one id in `spread` starts a chunk: chunks of about `min + spread` records, at most `max`. */
export interface ChunkSizes {
  min: number;
  max: number;
  spread: number;
}

const CLIENT_CHUNKS: ChunkSizes = { min: 16, max: 64, spread: 16 };

/**
 * Registrant packs, cut the same way, about 8 registrants (5 KB) each: a page of 25 registrants in
 * any order, or of 25 clients, reads at most 25 of them (at most 250 KB at the registry's size), and
 * a night's changed registrants rewrite their own packs only.
 */
export const REGISTRANT_PACKS: ChunkSizes = { min: 4, max: 16, spread: 4 };

/** True when the record with `id`, `length` records into the current chunk, starts a new chunk. */
export function startsChunk(id: number, length: number, sizes: ChunkSizes = CLIENT_CHUNKS): boolean {
  if (length >= sizes.max) return true;
  return length >= sizes.min && idHash(id) % sizes.spread === 0;
}

function idHash(id: number): number {
  let h = Math.imul((id % 0x100000000) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.floor(id / 0x100000000);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Segments under it are one tail: the clients a night adds rewrite it whole (at most 4,096 clients' keys, about 0.4 MB). */
const SMALLEST_POWER = 4096;
/**
 * The largest segment: its key index is built whole in a render thread (bundle-files.ts), and 131,072
 * clients' keys are what a thread's heap holds (produce-site.ts); past it, a search reads one more
 * segment's fragments for each 131,072 clients.
 */
const LARGEST_POWER = 131_072;

/**
 * The index segments of `total` clients: each a start (global index) and a count. The largest power of
 * two first (up to LARGEST_POWER, as many of those as fit), then the smaller ones the rest holds down
 * to SMALLEST_POWER, then the tail, as a binary counter: a search reads the fragments
 * of its keys in every segment, so there are few, and the clients a night adds (the highest ids, the
 * end) change only the small segments at the end until they add up to the next power.
 */
export function segmentRanges(total: number): { start: number; count: number }[] {
  const ranges: { start: number; count: number }[] = [];
  let start = 0;
  while (total - start >= 2 * LARGEST_POWER) {
    ranges.push({ start, count: LARGEST_POWER });
    start += LARGEST_POWER;
  }
  for (let power = Math.min(LARGEST_POWER, 2 ** Math.floor(Math.log2(Math.max(total - start, 1)))); power >= SMALLEST_POWER; power /= 2) {
    if (total - start < power) continue;
    ranges.push({ start, count: power });
    start += power;
  }
  if (start < total) ranges.push({ start, count: total - start });
  return ranges;
}

/**
 * How many fragments a segment's key index is cut into (bundle/key-index.ts), from its count of
 * clients alone, so that the build knows its files before it has the keys: a search reads a fragment
 * for each of its keys, so smaller ones read fewer bytes but make more files and more first keys in
 * the manifest. About 32 KB each in a large segment (at 87 bytes of keys a generated client, a whole
 * name's ten trigrams read about 300 KB of a 131,072-client segment's 11 MB), 16 KB in the small ones.
 */
export function keyFragmentCount(clients: number): number {
  const target = clients >= 65_536 ? 32 * 1024 : 16 * 1024;
  return Math.max(1, Math.ceil((clients * 87) / target));
}

/** The folders of the query bundle (bundle/bundle-manifest.ts names its files). */
export const BUNDLE_FOLDERS = ['bundle/', 'bundle/clients/', 'bundle/keys/', 'bundle/order/', 'bundle/registrants/', 'bundle/registrants/columns/', 'bundle/registrants/keys/'];

/**
 * How many files the query bundle has, for the progress bar: one per client chunk, their directory,
 * one per registrant pack, theirs, the `columns` registrant columns (bundle/registrant-columns.ts), the two
 * orders' fragments of `orderPlaces` places each, each segment's key fragments, the registrants' key
 * fragments (as many as a segment of as many clients: bundle/registrant-keys.ts), and the manifest.
 */
export function bundleFileCount(clientIds: Iterable<number>, total: number, registrantIds: readonly number[], files: { columns: number; orderPlaces: number }): number {
  const keyFragments = segmentRanges(total).reduce((sum, range) => sum + keyFragmentCount(range.count), 0);
  const registrants = chunkCount(registrantIds, REGISTRANT_PACKS) + 1 + keyFragmentCount(registrantIds.length);
  return chunkCount(clientIds) + 1 + keyFragments + 2 * Math.ceil(total / files.orderPlaces) + registrants + files.columns + 1;
}

function chunkCount(ids: Iterable<number>, sizes?: ChunkSizes): number {
  let chunks = 0;
  let length = 0;
  for (const id of ids) {
    if (length === 0 || startsChunk(id, length, sizes)) {
      chunks++;
      length = 0;
    }
    length++;
  }
  return chunks;
}
