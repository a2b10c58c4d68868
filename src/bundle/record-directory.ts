import { HASH_DIGITS, hashedName, hexOf } from './content-names.ts';
import { decodeSections, encodeSections } from './sections.ts';

/**
 * The directory of a kind of record file: the client chunks (`chunks`) or the registrant packs
 * (`packs`). For file k: the id of its first record, that record's place in id order (a client's
 * global index, a registrant's place), and the hash of the file's bytes (the id and the hash name the
 * file). One binary file the manifest names (`chunks.file`, `registrantPacks.file`), read by the
 * answers that read those records and used as views of it.
 *
 * Kept out of the manifest, which every answer reads and parses: as JSON the chunks' was 130 KB and
 * the packs' 72 KB of the manifest's 220 KB at 134,719 clients, and decoding and parsing them took
 * about 0.5 and 0.3 ms of every first answer's CPU, a list of clients paying for the registrants'
 * and a registrant's record for the clients'. Here each is 20 bytes a file, read without a loop of
 * this program's.
 */
export interface RecordDirectory {
  readonly count: number;
  /** The id of each file's first record, ascending. */
  readonly firstIds: Float64Array;
  /** The place in id order of each file's first record, ascending. */
  readonly starts: Uint32Array;
  /** The file under bundle/ of file k. */
  file(k: number): string;
}

/** The directory as the build gathers it: each file's first id, start and hash (HASH_DIGITS hex digits). */
export interface DirectoryEntries {
  firstIds: number[];
  starts: number[];
  hashes: string[];
}

export type DirectoryKind = 'chunks' | 'packs';

/** The folder under bundle/ of each kind's files and of their directory. */
const FOLDERS: Record<DirectoryKind, string> = { chunks: 'clients', packs: 'registrants' };

/** The stem of a kind's directory file (content-names.ts adds its hash): no record file's, whose stems are ids. */
export function directoryStem(kind: DirectoryKind): string {
  return `${FOLDERS[kind]}/directory`;
}

/** The stem of a kind's record file whose first record has `firstId` (content-names.ts adds its hash). */
export function recordFileStem(kind: DirectoryKind, firstId: number): string {
  return `${FOLDERS[kind]}/${firstId}`;
}

/** The stem of the client chunk whose first client has `firstId`. */
export function chunkStem(firstId: number): string {
  return recordFileStem('chunks', firstId);
}

/** The stem of the registrant pack whose first registrant has `firstId`. */
export function registrantPackStem(firstId: number): string {
  return recordFileStem('packs', firstId);
}

const HASH_BYTES = HASH_DIGITS / 2;

export function encodeRecordDirectory(kind: DirectoryKind, entries: DirectoryEntries): Uint8Array {
  const { firstIds, starts, hashes } = entries;
  if (starts.length !== firstIds.length || hashes.length !== firstIds.length || hashes.some((hash) => hash.length !== HASH_DIGITS)) {
    throw new Error(`the ${kind} directory does not add up (${firstIds.length} first ids, ${starts.length} starts, ${hashes.length} hashes)`);
  }
  const hashBytes = new Uint8Array(firstIds.length * HASH_BYTES);
  hashes.forEach((hash, k) => {
    for (let i = 0; i < HASH_BYTES; i++) hashBytes[k * HASH_BYTES + i] = parseInt(hash.slice(2 * i, 2 * i + 2), 16);
  });
  return encodeSections({ kind }, { firstIds: Float64Array.from(firstIds), starts: Uint32Array.from(starts), hashes: hashBytes });
}

export function decodeRecordDirectory(kind: DirectoryKind, bytes: Uint8Array, file: string): RecordDirectory {
  const sections = decodeSections(bytes, file);
  if (sections.fields['kind'] !== kind) throw new Error(`${file}: not a directory of ${kind} (kind ${JSON.stringify(sections.fields['kind'])})`);
  const firstIds = sections.section('firstIds', Float64Array);
  const starts = sections.section('starts', Uint32Array);
  const hashes = sections.section('hashes', Uint8Array);
  if (starts.length !== firstIds.length || hashes.length !== firstIds.length * HASH_BYTES) throw new Error(`${file}: its first ids, starts and hashes do not add up`);
  return {
    count: firstIds.length,
    firstIds,
    starts,
    file: (k) => hashedName(recordFileStem(kind, firstIds[k]!), hexOf(hashes.subarray(k * HASH_BYTES, (k + 1) * HASH_BYTES))),
  };
}
