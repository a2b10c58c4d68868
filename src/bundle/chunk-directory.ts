import { HASH_DIGITS, hashedName, hexOf } from './content-names.ts';
import { decodeSections, encodeSections } from './sections.ts';

/**
 * The client chunks' directory: for chunk k, the id of its first client, the global index of that
 * client, and the hash of the chunk's bytes (the id and the hash name its file). One binary file the
 * manifest names (`chunks.file`), read by the answers that read chunks and used as views of it.
 *
 * Kept out of the manifest, which every answer reads and parses: as JSON it was 130 KB of the
 * manifest's 220 KB at 134,719 clients, and decoding and parsing it took about 0.5 ms of every first
 * answer's CPU, a registrant's record as much as a page of clients. Here it is 4,470 x 20 bytes, and
 * an answer reads it without a loop of its own.
 */
export interface ChunkDirectory {
  readonly count: number;
  /** The id of each chunk's first client, ascending. */
  readonly firstIds: Float64Array;
  /** The global index of each chunk's first client, ascending. */
  readonly starts: Uint32Array;
  /** The file under bundle/ of chunk k. */
  file(k: number): string;
}

/** The directory as the build gathers it: each chunk's first id, start and hash (HASH_DIGITS hex digits). */
export interface ChunkEntries {
  firstIds: number[];
  starts: number[];
  hashes: string[];
}

/** The stem of the directory's file (content-names.ts adds its hash): no chunk's, whose stems are ids. */
export const CHUNK_DIRECTORY_STEM = 'clients/directory';

/** The stem of the client chunk whose first client has `firstId` (content-names.ts adds its hash). */
export function chunkStem(firstId: number): string {
  return `clients/${firstId}`;
}

const HASH_BYTES = HASH_DIGITS / 2;

export function encodeChunkDirectory(entries: ChunkEntries): Uint8Array {
  const { firstIds, starts, hashes } = entries;
  if (starts.length !== firstIds.length || hashes.length !== firstIds.length || hashes.some((hash) => hash.length !== HASH_DIGITS)) {
    throw new Error(`the chunk directory does not add up (${firstIds.length} first ids, ${starts.length} starts, ${hashes.length} hashes)`);
  }
  const hashBytes = new Uint8Array(firstIds.length * HASH_BYTES);
  hashes.forEach((hash, k) => {
    for (let i = 0; i < HASH_BYTES; i++) hashBytes[k * HASH_BYTES + i] = parseInt(hash.slice(2 * i, 2 * i + 2), 16);
  });
  return encodeSections({ kind: 'chunks' }, { firstIds: Float64Array.from(firstIds), starts: Uint32Array.from(starts), hashes: hashBytes });
}

export function decodeChunkDirectory(bytes: Uint8Array, file: string): ChunkDirectory {
  const sections = decodeSections(bytes, file);
  if (sections.fields['kind'] !== 'chunks') throw new Error(`${file}: not a chunk directory (kind ${JSON.stringify(sections.fields['kind'])})`);
  const firstIds = sections.section('firstIds', Float64Array);
  const starts = sections.section('starts', Uint32Array);
  const hashes = sections.section('hashes', Uint8Array);
  if (starts.length !== firstIds.length || hashes.length !== firstIds.length * HASH_BYTES) throw new Error(`${file}: its first ids, starts and hashes do not add up`);
  return {
    count: firstIds.length,
    firstIds,
    starts,
    file: (k) => hashedName(chunkStem(firstIds[k]!), hexOf(hashes.subarray(k * HASH_BYTES, (k + 1) * HASH_BYTES))),
  };
}
