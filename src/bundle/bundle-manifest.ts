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
 *   any order reads at most 25 chunks and their directory (bundle/record-directory.ts), a file of its
 *   own so that the manifest stays small;
 * - index segments are runs of clients (the largest power of two first, then a binary counter, so a
 *   night's new clients change only the small ones at the end); each segment's key index (name keys
 *   and value keys: bundle/key-index.ts) is cut by key range into fragments, of which a search reads
 *   only those holding its keys;
 * - the name and date orders of all clients are cut into fragments of places (bundle/order-fragments.ts):
 *   a page in any ordering reads the one or two around it;
 * - registrants' texts are in small packs, with a directory of their own as the chunks have, what
 *   their list filters and sorts on in a few column files (bundle/registrant-columns.ts), and their
 *   names in a key index of their own (bundle/registrant-keys.ts).
 */
export const BUNDLE_FORMAT = 'lda-clients-mirror/query-bundle@8';
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
   * The client chunks: how many, and the file of their directory (bundle/record-directory.ts), which
   * says where each starts and names its file.
   */
  chunks: { count: number; file: string };
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
   * The registrant packs, each the texts of the registrants from its first id up to the next pack's:
   * how many, and the file of their directory (bundle/record-directory.ts), which says where each
   * starts (so a place in id order finds its pack without the ids column) and names its file.
   */
  registrantPacks: { count: number; file: string };
  /**
   * The registrant overlay, absent when empty (a fresh build's): the registrants whose text some client
   * chunk still holds as an earlier build wrote it (`ids`, ascending), and the file of the values that
   * differ, as they are now (`file`, overlay-file.ts), which a client's body puts in place of its
   * chunk's. A nightly rebuild keeps a chunk whose clients did not change, so that a renamed
   * registrant does not rewrite every chunk of its clients (render/registrant-overlay.ts folds it when
   * it grows).
   */
  overlay?: { ids: number[]; file: string };
  /**
   * The registrants' names as a key index (bundle/registrant-keys.ts), by place: its fragments' first
   * keys and hashes (registrantKeyFile), the longest name in UTF-8 bytes, and its common words (as a
   * segment's `words`).
   */
  registrantKeys: { firstKeys: string[]; hashes: string[]; maxNameBytes: number; words: string[] };
}

export interface ManifestSegment {
  start: number;
  count: number;
  /** Its key index's fragments: the first key each holds (ascending) and the hash of its bytes. */
  keys: { firstKeys: string[]; hashes: string[] };
  /** The longest name of the segment in UTF-8 bytes: a longer search matches nothing, read nothing. */
  maxNameBytes: number;
  /** Its common words (key-index.ts, `4WORD`), ascending: a search of one of them reads its list alone. Absent in bundles built before them: none. */
  words?: string[];
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

/** The stem of the registrant overlay's file (content-names.ts adds its hash). */
export const OVERLAY_STEM = 'registrants/overlay';

/** The stem of fragment k of the registrants' key index (content-names.ts adds its hash). */
export function registrantKeyStem(k: number): string {
  return `registrants/keys/${k}`;
}

/** The file under bundle/ of fragment k of the registrants' key index. */
export function registrantKeyFile(keys: BundleManifest['registrantKeys'], k: number): string {
  return hashedName(registrantKeyStem(k), keys.hashes[k]!);
}

export function encodeManifest(manifest: BundleManifest): string {
  return `${JSON.stringify(manifest)}\n`;
}

/**
 * The manifest from its text (JSON.parse, the engine's own: no loop of this program's runs over its
 * thousands of entries, which a fresh instance would run interpreted); an error naming what does not
 * add up.
 */
export function decodeManifest(text: string): BundleManifest {
  const manifest = JSON.parse(text) as BundleManifest;
  if (manifest.format !== BUNDLE_FORMAT) return manifest;
  for (const [directory, what] of [[manifest.chunks, 'chunk'], [manifest.registrantPacks, 'registrant pack']] as const) {
    if (!Number.isInteger(directory?.count) || typeof directory.file !== 'string') throw new Error(`the ${what} directory does not add up (its count and its file)`);
  }
  const { overlay } = manifest;
  if (overlay !== undefined && (!Array.isArray(overlay.ids) || typeof overlay.file !== 'string')) throw new Error('the registrant overlay does not add up (its ids and its file)');
  return manifest;
}
