import type { Format } from '../contract.ts';
import type { PackEntry } from '../plan/registrant-packs.ts';

/**
 * The query bundle: what the answerer reads to answer any request where code runs (contract section
 * 9), written by the build beside the static tree under `bundle/`. Its manifest, `bundle/manifest.json`,
 * names every other file; docs/query-bundle.md describes them all. `BUNDLE_FORMAT` changes when the
 * layout does.
 *
 * Clients are numbered in id order across the bundle (their global index). Their texts are in small
 * chunks, so that a page reads a few kilobytes per client; what the filters and orderings read is in a
 * few large index segments, loaded once; registrants' texts are in packs (a base and an overlay of the
 * registrants changed since the base was written), so that a night's changes rewrite little.
 */
export const BUNDLE_FORMAT = 'lda-clients-mirror/query-bundle@2';
export const BUNDLE_FOLDER = 'bundle/';
export const BUNDLE_MANIFEST = `${BUNDLE_FOLDER}manifest.json`;

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  /** Every link starts with it (contract section 2). */
  baseUrl: string;
  /** The `format` values built; `''` is the absent parameter. */
  formats: Format[];
  /** The values the state and country filters accept (contract section 8). */
  choices: { states: string[]; countries: string[] };
  clients: number;
  /**
   * Client chunk k holds the clients of global index `starts[k]` up to the next chunk's start; its
   * first client's id is `firstIds[k]`, which names its file (`chunkFile`).
   */
  chunks: { firstIds: number[]; starts: number[] };
  /** Index segments in id order, each a run of clients from global index `start` (files under bundle/). */
  segments: { file: string; start: number; count: number }[];
  nameOrder: string;
  /** Registrants listed (contract section 10): those of the registrant index. */
  registrants: number;
  registrantIndex: string;
  /** What the registrants list filters and sorts on (registrant-columns.ts). */
  registrantColumns: string;
  /** The base packs by id range, then the overlay, which holds the newer text of any registrant it has. */
  registrantPacks: PackEntry[];
  registrantOverlay: string | null;
  /** The digests of the base's registrants, for the next build's plan of its packs (plan/registrant-packs.ts). */
  registrantDigests: string;
}

/** The file of the client chunk whose first client has `firstId`, under bundle/. */
export function chunkFile(firstId: number): string {
  return `clients/${firstId}.bin`;
}
