/**
 * How the query bundle cuts the clients (in id order) into files, decided from the ids alone so that
 * a night's change rewrites few of them (issue 32: the nightly change at most 5 % of the bytes).
 *
 * - Chunks of client texts, about 32 clients each, are cut where an id's hash says so (content-defined
 *   chunking, as rsync and backup tools cut files): a client added or removed changes its own chunk,
 *   never the cut of the others. A page of 25 clients in any order reads at most 25 small chunks.
 * - Index segments are runs of a power of two of clients: whole segments of `full` clients from the
 *   first, then the rest as decreasing powers of two down to 1,024, then a tail under 1,024. New
 *   clients (higher ids) join the tail and at times merge it into the next power of two, like a binary
 *   counter, so the segments before stay as they are; a search reads every segment, so there are few.
 */
const CHUNK_MIN = 16;
const CHUNK_MAX = 64;
/** Past CHUNK_MIN, one id in this many starts a chunk: chunks of about CHUNK_MIN + CHUNK_SPREAD. */
const CHUNK_SPREAD = 16;

/** True when the client with `id`, `length` clients into the current chunk, starts a new chunk. */
export function startsChunk(id: number, length: number): boolean {
  if (length >= CHUNK_MAX) return true;
  return length >= CHUNK_MIN && idHash(id) % CHUNK_SPREAD === 0;
}

function idHash(id: number): number {
  let h = Math.imul((id % 0x100000000) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.floor(id / 0x100000000);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const SMALLEST_POWER = 1024;
const MIN_FULL = 32_768;
/** Local indexes in a segment are 16 bits. */
const MAX_FULL = 65_536;
/** Whole segments past which they grow instead, so that a search reads few files. */
const FULL_SEGMENTS = 12;

/** The index segments of `total` clients: each a start (global index) and a count. */
export function segmentRanges(total: number): { start: number; count: number }[] {
  let full = MIN_FULL;
  while (full < MAX_FULL && full * FULL_SEGMENTS < total) full *= 2;
  const ranges: { start: number; count: number }[] = [];
  let start = 0;
  while (total - start >= full) {
    ranges.push({ start, count: full });
    start += full;
  }
  for (let power = full / 2; power >= SMALLEST_POWER; power /= 2) {
    if (total - start < power) continue;
    ranges.push({ start, count: power });
    start += power;
  }
  if (start < total) ranges.push({ start, count: total - start });
  return ranges;
}

/** The folders of the query bundle (bundle/bundle-manifest.ts names its files). */
export const BUNDLE_FOLDERS = ['bundle/', 'bundle/clients/', 'bundle/index/', 'bundle/order/', 'bundle/registrants/'];

/**
 * How many files the query bundle has, for the progress bar: one per chunk and per segment, the
 * name order, the registrant index and the manifest, and the registrant packs of `packFiles`
 * (bundle/registrant-packs.ts).
 */
export function bundleFileCount(clientIds: Iterable<number>, total: number, packFiles: number): number {
  let chunks = 0;
  let length = 0;
  for (const id of clientIds) {
    if (length === 0 || startsChunk(id, length)) {
      chunks++;
      length = 0;
    }
    length++;
  }
  return chunks + segmentRanges(total).length + 3 + packFiles;
}
