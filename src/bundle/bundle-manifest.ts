import type { Format, Preflight } from '../contract.ts';
import { BUNDLE_FOLDER, hashedName } from './content-names.ts';
import type { OrderField } from './order-fragments.ts';
import type { RegistrantColumn } from './registrant-columns.ts';

/**
 * The query bundle: what the answerer reads to answer any request where code runs (contract section
 * 9), written by the build beside the static tree under `bundle/`. Its manifest, `bundle/manifest.json`,
 * names every other file, each named by its content (content-names.ts); docs/query-bundle.md describes
 * them all. `BUNDLE_FORMAT` changes when the layout does.
 *
 * Laid out for the first answer of a fresh instance (issue 39): every answer reads this manifest, then
 * only the files its request names, each small (Pagefind's fragments, PMTiles' directory first):
 * - clients are numbered in id order across the bundle (their global index); their texts are in chunks
 *   of about 30, each with the texts of the registrants its clients embed, so a page of 25 clients in
 *   any order reads at most 25 chunks and nothing else;
 * - index segments are runs of clients (the largest power of two first, then a binary counter, so a
 *   night's new clients change only the small ones at the end); each segment's key index (name keys
 *   and value keys: bundle/key-index.ts) is cut by key range into fragments, of which a search reads
 *   only those holding its keys;
 * - the name and date orders of all clients are cut into fragments of places (bundle/order-fragments.ts):
 *   a page in any ordering reads the one or two around it;
 * - registrants' texts are in small packs, and what their list filters and sorts on in a file per
 *   column (bundle/registrant-columns.ts).
 */
export const BUNDLE_FORMAT = 'lda-clients-mirror/query-bundle@4';
export { BUNDLE_FOLDER };
/** The manifest's name in the bundle folder: what a reader of the bundle (`ReadFile`) opens first. */
export const MANIFEST_FILE = 'manifest.json';
export const BUNDLE_MANIFEST = `${BUNDLE_FOLDER}${MANIFEST_FILE}`;

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  /** Every link starts with it (contract section 2). */
  baseUrl: string;
  /** The headers of every answer (the rewrite map's: the contract's, Cache-Control, the CORS origin); older bundles lack them. */
  headers?: Record<string, string>;
  /** With `--cors`: the answer to `OPTIONS` on any path. */
  preflight?: Preflight;
  /**
   * The ETag of every 200 of this build: a digest of every other bundle file and of these settings, so
   * it changes when any answer can, and stays when a rebuild changed nothing.
   */
  etag?: string;
  /** The `format` values built; `''` is the absent parameter. */
  formats: Format[];
  /** The values the state and country filters accept (contract section 8). */
  choices: { states: string[]; countries: string[] };
  clients: number;
  /**
   * Client chunk k holds the clients of global index `starts[k]` up to the next chunk's start; its
   * first client's id is `firstIds[k]`, which with the hash of its bytes, `hashes[k]`, names its file
   * (`chunkFile`).
   */
  chunks: { firstIds: number[]; starts: number[]; hashes: string[] };
  /** Index segments in id order, each a run of clients from global index `start` (segmentStem). */
  segments: ManifestSegment[];
  /**
   * The orders' fragments (bundle/order-fragments.ts): the hashes of each order's (orderFragmentStem),
   * fragment k holding its places from k times `places`; and how many clients have no date (the date
   * order's first group, first in either direction).
   */
  orders: { places: number; nullDates: number } & Record<OrderField, string[]>;
  /** Registrants listed and served (contract sections 4 and 10), numbered by their place in id order. */
  registrants: number;
  /** The file of each registrant column (registrant-columns.ts), named by its content. */
  registrantColumns: Record<RegistrantColumn, string>;
  /**
   * Registrant pack k holds the texts of the registrants from id `firstIds[k]` up to the next pack's
   * first, `counts[k]` of them (so a place in id order finds its pack without the ids column); with
   * the hash of its bytes, `hashes[k]`, that id names its file (`registrantPackFile`).
   */
  registrantPacks: { firstIds: number[]; counts: number[]; hashes: string[] };
}

export interface ManifestSegment {
  start: number;
  count: number;
  /** Its key index's fragments: the first key each holds (ascending) and the hash of its bytes. */
  keys: { firstKeys: string[]; hashes: string[] };
  /** The longest name of the segment in UTF-8 bytes: a longer search matches nothing, read nothing. */
  maxNameBytes: number;
}

/** The stem of fragment k of the key index of a segment (content-names.ts adds its hash). */
export function keyFragmentStem(segment: { start: number; count: number }, k: number): string {
  return `keys/${segment.start}-${segment.count}-${k}`;
}

/** The file under bundle/ of key fragment k of a segment. */
export function keyFragmentFile(segment: ManifestSegment, k: number): string {
  return hashedName(keyFragmentStem(segment, k), segment.keys.hashes[k]!);
}

/** The stem of fragment k of an order (content-names.ts adds its hash). */
export function orderFragmentStem(field: OrderField, k: number): string {
  return `order/${field}-${k}`;
}

/** The file under bundle/ of fragment k of an order. */
export function orderFragmentFile(orders: BundleManifest['orders'], field: OrderField, k: number): string {
  return hashedName(orderFragmentStem(field, k), orders[field][k]!);
}

/** The stem of the registrant pack whose first registrant has `firstId` (content-names.ts adds its hash). */
export function registrantPackStem(firstId: number): string {
  return `registrants/${firstId}`;
}

/** The file under bundle/ of registrant pack k of a manifest. */
export function registrantPackFile(packs: BundleManifest['registrantPacks'], k: number): string {
  return hashedName(registrantPackStem(packs.firstIds[k]!), packs.hashes[k]!);
}

/** The stem of the client chunk whose first client has `firstId` (content-names.ts adds its hash). */
export function chunkStem(firstId: number): string {
  return `clients/${firstId}`;
}

/** The file under bundle/ of client chunk k of a manifest. */
export function chunkFile(chunks: BundleManifest['chunks'], k: number): string {
  return hashedName(chunkStem(chunks.firstIds[k]!), chunks.hashes[k]!);
}

/**
 * The manifest as written: its two directories, thousands of entries read by every answer (the client
 * chunks, the registrant packs), are kept as three strings each (each file's first id as the gap from
 * the one before, its count of records, both in base 36, and the hashes one after another) instead of
 * arrays of numbers and quoted hashes: under half the bytes, and one JSON token each to parse.
 */
interface Directory {
  firstIdGaps: string;
  counts: string;
  hashes: string;
}

interface ManifestFile extends Omit<BundleManifest, 'chunks' | 'registrantPacks'> {
  chunks: Directory;
  registrantPacks: Directory;
}

export function encodeManifest(manifest: BundleManifest): string {
  const { firstIds, starts, hashes } = manifest.chunks;
  const counts = starts.map((start, k) => (starts[k + 1] ?? manifest.clients) - start);
  const file: ManifestFile = { ...manifest, chunks: directory(firstIds, counts, hashes), registrantPacks: directory(manifest.registrantPacks.firstIds, manifest.registrantPacks.counts, manifest.registrantPacks.hashes) };
  return `${JSON.stringify(file)}\n`;
}

function directory(firstIds: readonly number[], counts: readonly number[], hashes: readonly string[]): Directory {
  return {
    firstIdGaps: firstIds.map((id, k) => (k === 0 ? id : id - firstIds[k - 1]!).toString(36)).join(','),
    counts: counts.map((count) => count.toString(36)).join(','),
    hashes: hashes.join(''),
  };
}

/** The manifest from its text; an error naming what does not add up. */
export function decodeManifest(text: string): BundleManifest {
  const file = JSON.parse(text) as ManifestFile;
  if (file.format !== BUNDLE_FORMAT) return file as unknown as BundleManifest;
  const chunks = entries(file.chunks, 'chunk');
  const starts: number[] = [];
  let start = 0;
  for (const count of chunks.counts) {
    starts.push(start);
    start += count;
  }
  if (start !== file.clients) throw new Error(`the chunk directory holds ${start} clients, the manifest counts ${file.clients}`);
  return { ...file, chunks: { firstIds: chunks.firstIds, starts, hashes: chunks.hashes }, registrantPacks: entries(file.registrantPacks, 'registrant pack') };
}

function entries(directory: Directory, what: string): { firstIds: number[]; counts: number[]; hashes: string[] } {
  const split = (list: string) => (list === '' ? [] : list.split(',').map((value) => parseInt(value, 36)));
  const gaps = split(directory.firstIdGaps);
  const counts = split(directory.counts);
  const length = gaps.length === 0 ? 0 : directory.hashes.length / gaps.length;
  if (counts.length !== gaps.length || !Number.isInteger(length) || gaps.some(Number.isNaN) || counts.some(Number.isNaN)) {
    throw new Error(`the ${what} directory does not add up (${gaps.length} first ids, ${counts.length} counts, ${directory.hashes.length} characters of hashes)`);
  }
  let id = 0;
  return {
    firstIds: gaps.map((gap) => (id += gap)),
    counts,
    hashes: gaps.map((_, k) => directory.hashes.slice(k * length, (k + 1) * length)),
  };
}
