import type { Format, Preflight } from '../contract.ts';
import { BUNDLE_FOLDER, hashedName } from './content-names.ts';
import type { PackEntry } from './registrant-packs.ts';

/**
 * The query bundle: what the answerer reads to answer any request where code runs (contract section
 * 9), written by the build beside the static tree under `bundle/`. Its manifest, `bundle/manifest.json`,
 * names every other file, each named by its content (content-names.ts); docs/query-bundle.md describes
 * them all. `BUNDLE_FORMAT` changes when the layout does.
 *
 * Clients are numbered in id order across the bundle (their global index). Their texts are in small
 * chunks, so that a page reads a few kilobytes per client; what the filters and orderings read is in a
 * few large index segments, loaded once; registrants' texts are in packs (a base and an overlay of the
 * registrants changed since the base was written), so that a night's changes rewrite little.
 */
export const BUNDLE_FORMAT = 'lda-clients-mirror/query-bundle@2';
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
  /** Index segments in id order, each a run of clients from global index `start` (files under bundle/). */
  segments: { file: string; start: number; count: number }[];
  nameOrder: string;
  registrantIndex: string;
  /** The base packs by id range, then the overlay, which holds the newer text of any registrant it has. */
  registrantPacks: PackEntry[];
  registrantOverlay: string | null;
  /** The digests of the base's registrants, for the next build's plan of its packs (bundle/registrant-packs.ts). */
  registrantDigests: string;
}

/** The stem of the client chunk whose first client has `firstId` (content-names.ts adds its hash). */
export function chunkStem(firstId: number): string {
  return `clients/${firstId}`;
}

/** The file under bundle/ of client chunk k of a manifest. */
export function chunkFile(chunks: BundleManifest['chunks'], k: number): string {
  return hashedName(chunkStem(chunks.firstIds[k]!), chunks.hashes[k]!);
}
