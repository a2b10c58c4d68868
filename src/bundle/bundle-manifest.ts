import type { Format, Preflight } from '../contract.ts';
import { BUNDLE_FOLDER, hashedName } from './content-names.ts';
import type { RegistrantColumn } from './registrant-columns.ts';

/**
 * The query bundle: what the answerer reads to answer any request where code runs (contract section
 * 9), written by the build beside the static tree under `bundle/`. Its manifest, `bundle/manifest.json`,
 * names every other file, each named by its content (content-names.ts); docs/query-bundle.md describes
 * them all. `BUNDLE_FORMAT` changes when the layout does.
 *
 * Clients are numbered in id order across the bundle (their global index). Their texts are in small
 * chunks, so that a page reads a few kilobytes per client; what the filters and orderings read is in a
 * few large index segments, loaded once; registrants' texts are in small packs cut as the chunks are,
 * and what their list filters and sorts on in a file per column, so that a page reads little and a
 * night's changes rewrite little.
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
  /** Index segments in id order, each a run of clients from global index `start` (files under bundle/). */
  segments: { file: string; start: number; count: number }[];
  nameOrder: string;
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
