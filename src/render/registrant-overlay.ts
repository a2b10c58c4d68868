import { REGISTRANT_FIELD_KEYS } from '../contract.ts';
import { BUNDLE_FOLDER, OVERLAY_STEM, chunkStem, registrantPackStem } from '../bundle/bundle-manifest.ts';
import { bundleFile, hashOf, hashedName, type BundleFile } from '../bundle/content-names.ts';
import { decodeRecordTexts, encodeRecordTexts, type RecordTexts } from '../bundle/record-texts.ts';

/**
 * The previous build's query bundle, as far as the next one reuses it (previous/previous-bundle.ts):
 * its chunks and registrant packs by first id, the bytes checked against their names (undefined when
 * missing or damaged), and the registrants of its overlay.
 */
export interface PreviousBundle {
  readonly overlayIds: readonly number[];
  chunkHash(firstId: number): string | undefined;
  chunk(firstId: number): Uint8Array | undefined;
  packHash(firstId: number): string | undefined;
  pack(firstId: number): Uint8Array | undefined;
}

/**
 * The most the overlay's registrants' texts may weigh before the chunks are written again with the
 * texts of now (the fold). A first answer reads the overlay's file only when one of its clients'
 * registrants is in it, and the heaviest answer that reads chunks (a deep page in name order: 25
 * chunks and the order's fragments) reads 0.82 MiB at 134,719 clients: 128 KiB more keeps it under
 * issue 39's 1 MiB. At about 420 bytes a registrant, that is about 300 registrants changed: six nights
 * of 50, each uploading the overlay again (under 0.15 % of the bundle) instead of every chunk of the
 * changed registrants' clients (16.8 MB, 16 %); the fold uploads those chunks once.
 */
export const OVERLAY_BYTES = 128 * 1024;

/** A client of a chunk: its id, its fields' text and its registrant's id. */
export interface ChunkClient {
  id: number;
  text: string;
  registrant: number;
}

/**
 * What a rebuild keeps of the previous bundle's client chunks (bundle-manifest.ts, `overlay`): a chunk
 * whose clients are those the previous build wrote, with the same texts, keeps its bytes (and its
 * name: nothing to upload) even when a registrant it embeds has changed since; that registrant goes
 * into the overlay, with its text of now, which the answerer takes in place of the chunk's. So a
 * renamed registrant costs its text once, not every chunk of its clients.
 *
 * Decided before the first chunk, from the registrants alone: the candidates are the previous
 * overlay's registrants and those whose text changed since (found by comparing the new packs with the
 * previous build's); if their texts weigh more than `OVERLAY_BYTES`, or there is no previous bundle,
 * every chunk is written with the texts of now and the overlay is empty: a fresh build's bundle.
 */
export class RegistrantOverlay {
  private readonly changed = new Set<number>();
  private readonly stale = new Set<number>();
  /** Decided when the first chunk comes: the candidates, or 'fold'. */
  private candidates: Set<number> | 'fold' | undefined;

  constructor(
    private readonly previous: PreviousBundle | undefined,
    private readonly texts: ReadonlyMap<number, string>,
    private readonly bound = OVERLAY_BYTES,
  ) {}

  /** A registrant pack of this build: its registrants whose text differs from the previous pack's (or that it lacks) are candidates. */
  notePack(registrants: readonly { id: number; text: string }[], file: BundleFile): void {
    if (this.previous === undefined) return;
    const firstId = registrants[0]!.id;
    if (this.previous.packHash(firstId) === hashOf(file)) return;
    const bytes = this.previous.pack(firstId);
    const before = bytes === undefined ? undefined : readable(bytes, `${BUNDLE_FOLDER}${hashedName(registrantPackStem(firstId), this.previous.packHash(firstId)!)}`);
    for (const { id, text } of registrants) {
      const at = before?.find(id) ?? -1;
      if (at < 0 || before!.text(at) !== text) this.changed.add(id);
    }
  }

  /**
   * The file to write for a chunk: the fresh one (the texts of now), or the previous build's with the
   * same first id when its clients are these, with the same texts, and it differs only in texts of
   * candidates, which then join the overlay.
   */
  chunk(fresh: BundleFile, clients: readonly ChunkClient[]): BundleFile {
    const candidates = this.decide();
    if (candidates === undefined || this.previous === undefined) return fresh;
    const firstId = clients[0]!.id;
    const hash = this.previous.chunkHash(firstId);
    if (hash === undefined || hash === hashOf(fresh)) return fresh;
    const bytes = this.previous.chunk(firstId);
    const path = `${BUNDLE_FOLDER}${hashedName(chunkStem(firstId), hash)}`;
    const before = bytes === undefined ? undefined : readable(bytes, path);
    if (before?.embedded === undefined || before.count !== clients.length) return fresh;
    for (const [i, client] of clients.entries()) {
      if (before.ids[i] !== client.id || before.registrants?.[i] !== client.registrant || before.text(i) !== client.text) return fresh;
    }
    const embedded = before.embedded;
    if (embedded.count !== new Set(clients.map((client) => client.registrant)).size) return fresh;
    const stale: number[] = [];
    for (let j = 0; j < embedded.count; j++) {
      const id = embedded.ids[j]!;
      const now = this.texts.get(id);
      if (now === undefined || (embedded.text(j) !== now && !candidates.has(id))) return fresh;
      if (embedded.text(j) !== now) stale.push(id);
    }
    for (const id of stale) this.stale.add(id);
    return { path, data: bytes! };
  }

  /** The overlay's file (its registrants' texts of now, as a pack holds them) and ids, once every chunk is decided; undefined when empty. */
  file(): { file: BundleFile; ids: number[] } | undefined {
    if (this.stale.size === 0) return undefined;
    const ids = [...this.stale].sort((a, b) => a - b);
    const records = ids.map((id) => ({ id, text: this.texts.get(id)! }));
    const file = bundleFile(OVERLAY_STEM, encodeRecordTexts(REGISTRANT_FIELD_KEYS, records));
    const back = decodeRecordTexts(file.data, file.path);
    records.forEach((record, i) => {
      if (back.ids[i] !== record.id || back.text(i) !== record.text) throw new Error(`${file.path}: registrant ${record.id} does not read back as it was written`);
    });
    return { file, ids };
  }

  /** The candidates, once the packs are all noted; undefined when the chunks are written fresh. */
  private decide(): Set<number> | undefined {
    if (this.previous === undefined) return undefined;
    if (this.candidates === undefined) {
      const candidates = new Set([...this.previous.overlayIds, ...this.changed].filter((id) => this.texts.has(id)));
      const encoder = new TextEncoder();
      let bytes = 0;
      for (const id of candidates) bytes += encoder.encode(this.texts.get(id)!).length;
      this.candidates = bytes > this.bound ? 'fold' : candidates;
    }
    return this.candidates === 'fold' ? undefined : this.candidates;
  }
}

/** A previous file decoded, or undefined when it does not decode (then it is not reused). */
function readable(bytes: Uint8Array, file: string): RecordTexts | undefined {
  try {
    return decodeRecordTexts(bytes, file);
  } catch {
    return undefined;
  }
}
