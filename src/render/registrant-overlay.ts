import { REGISTRANT_FIELD_KEYS } from '../contract.ts';
import { BUNDLE_FOLDER, OVERLAY_STEM } from '../bundle/bundle-manifest.ts';
import { chunkStem } from '../bundle/record-directory.ts';
import { bundleFile, hashOf, hashedName, type BundleFile } from '../bundle/content-names.ts';
import { fieldValues, reusableRecordTexts } from '../bundle/record-texts.ts';
import { decodeOverlay, encodeOverlay, overlayEntry, overlayValues, type OverlayFields } from '../bundle/overlay-file.ts';

/**
 * The previous build's query bundle, as far as the next one reuses it (previous/previous-bundle.ts):
 * its chunks and registrant packs by first id, the bytes checked against their names (undefined when
 * missing or damaged), each registrant's text from the pack that held it, and its overlay.
 */
export interface PreviousBundle {
  readonly overlay: OverlayFields;
  chunkHash(firstId: number): string | undefined;
  chunk(firstId: number): Uint8Array | undefined;
  packHash(firstId: number): string | undefined;
  /** The chunk whose ids would hold a client (the last that starts at or before its id); undefined before the first. */
  chunkHolding(id: number): string | undefined;
  /** A registrant's text as the previous build wrote it, whichever pack held it; undefined when it had none (or its pack is damaged). */
  registrantText(id: number): string | undefined;
}

/**
 * The most the overlay's file may weigh; past it, some of its registrants are let go, their chunks
 * written again with the texts of now (RegistrantOverlay.withinBound). A first answer reads the file
 * only when one of its clients' registrants is in it, and the heaviest first answer reads 0.96 MiB at
 * 134,719 clients (a search's page in name order: 30 files): 40 KiB more keeps it within issue 39's
 * 1 MiB. A renamed registrant weighs about 110 bytes in it (its name and dt_updated), so it holds
 * about 370: seven nights of the bench's 50, each uploading the file again instead of every chunk of
 * the renamed registrants' clients.
 */
export const OVERLAY_BYTES = 40 * 1024;

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
 * into the overlay with the values that differ, as they are now, which the answerer puts in place of
 * the chunk's. So a renamed registrant costs its new values once, not every chunk of its clients.
 *
 * Decided before the first chunk: the candidates are the previous overlay's registrants and those
 * whose text changed since (the new packs compared with the previous build's), each with the keys that
 * may differ (the previous overlay's and the changed ones). If their file would weigh more than
 * `OVERLAY_BYTES`, the cheapest to let go are let go (withinBound). With no previous bundle, every
 * chunk is written with the texts of now and the overlay is empty: a fresh build's bundle.
 */
export class RegistrantOverlay {
  /** Registrants changed since the previous build, with the keys whose values changed. */
  private readonly changed = new Map<number, Set<string>>();
  /** Registrants some kept chunk holds otherwise than now, with the keys that differ. */
  private readonly stale = new Map<number, Set<string>>();
  /** Decided when the first chunk comes: the candidates the overlay keeps, and the keys each may differ in. */
  private candidates: Map<number, Set<string>> | undefined;
  /** Each registrant's values of now, parsed once for the build: a big registrant's are asked for in every chunk that holds it. */
  private readonly values = new Map<number, readonly string[] | undefined>();

  private readonly clientRegistrants: () => Iterable<readonly [number, number]>;
  private readonly bound: number;

  constructor(
    private readonly previous: PreviousBundle | undefined,
    private readonly texts: ReadonlyMap<number, string>,
    options: {
      /** Each client's id and its registrant's: which chunks a registrant let go costs (withinBound). */
      clientRegistrants: () => Iterable<readonly [number, number]>;
      bound?: number;
    },
  ) {
    this.clientRegistrants = options.clientRegistrants;
    this.bound = options.bound ?? OVERLAY_BYTES;
  }

  /**
   * A registrant pack of this build: its registrants whose values differ from the previous build's are
   * candidates, with the keys that differ. Compared registrant by registrant, wherever the previous
   * build packed each: a new registrant's id can start a pack and move those after it into a pack of
   * another first id, unchanged. A registrant the previous build did not have is in none of its chunks,
   * so never held otherwise than now: not a candidate. (Counted as changed in every key, the 100 new
   * registrants of the bench's night weighed about 40 KiB, and folded the overlay on its second night.)
   */
  notePack(registrants: readonly { id: number; text: string }[], file: BundleFile): void {
    if (this.previous === undefined) return;
    // The previous pack of that first id, byte for byte: none of its registrants changed.
    if (this.previous.packHash(registrants[0]!.id) === hashOf(file)) return;
    for (const { id, text } of registrants) {
      const before = this.previous.registrantText(id);
      if (before === undefined || before === text) continue;
      const keys = differingKeys(valuesOf(before), valuesOf(text));
      if (keys === undefined || keys.size > 0) this.changed.set(id, keys ?? new Set(REGISTRANT_FIELD_KEYS));
    }
  }

  /**
   * The file to write for a chunk: the fresh one (the texts of now), or the previous build's with the
   * same first id when its clients are these, with the same texts, and it differs only in values of
   * candidates that they may differ in, which then join the overlay.
   */
  chunk(fresh: BundleFile, clients: readonly ChunkClient[]): BundleFile {
    const candidates = this.decide();
    if (candidates === undefined || this.previous === undefined) return fresh;
    const firstId = clients[0]!.id;
    const hash = this.previous.chunkHash(firstId);
    if (hash === undefined || hash === hashOf(fresh)) return fresh;
    const bytes = this.previous.chunk(firstId);
    const path = `${BUNDLE_FOLDER}${hashedName(chunkStem(firstId), hash)}`;
    const before = bytes === undefined ? undefined : reusableRecordTexts(bytes, path);
    if (before?.embedded === undefined || before.count !== clients.length) return fresh;
    for (const [i, client] of clients.entries()) {
      if (before.ids[i] !== client.id || before.registrants?.[i] !== client.registrant || before.text(i) !== client.text) return fresh;
    }
    const embedded = before.embedded;
    if (embedded.count !== new Set(clients.map((client) => client.registrant)).size) return fresh;
    const stale: [number, Set<string>][] = [];
    for (let j = 0; j < embedded.count; j++) {
      const id = embedded.ids[j]!;
      const now = this.texts.get(id);
      if (now === undefined) return fresh;
      const then = embedded.text(j);
      if (then === now) continue;
      const keys = differingKeys(valuesOf(then), this.valuesNow(id));
      const allowed = candidates.get(id);
      if (keys === undefined || allowed === undefined || [...keys].some((key) => !allowed.has(key))) return fresh;
      // What the answerer will make of it: the chunk's text with the values of now in place.
      if (embedded.text(j, this.entry(id, keys)) !== now) return fresh;
      stale.push([id, keys]);
    }
    for (const [id, keys] of stale) {
      const known = this.stale.get(id) ?? new Set<string>();
      for (const key of keys) known.add(key);
      this.stale.set(id, known);
    }
    return { path, data: bytes! };
  }

  /** The overlay's file and ids, once every chunk is decided; undefined when it is empty. */
  file(): { file: BundleFile; ids: number[] } | undefined {
    if (this.stale.size === 0) return undefined;
    const entries = this.entries(this.stale);
    const file = bundleFile(OVERLAY_STEM, encodeOverlay(entries));
    // Read back: each registrant's values, as they are now.
    const back = decodeOverlay(file.data, file.path);
    for (const [id, entry] of entries) {
      if (JSON.stringify(overlayValues(back, id, file.path)) !== JSON.stringify(entry)) throw new Error(`${file.path}: registrant ${id} does not read back as it was written`);
    }
    return { file, ids: [...this.stale.keys()].sort((a, b) => a - b) };
  }

  /** Each registrant's values of now for the keys given, in the keys' order. */
  private entries(keys: ReadonlyMap<number, ReadonlySet<string>>): Map<number, Record<string, string>> {
    return new Map([...keys].map(([id, changed]) => [id, this.entry(id, changed)]));
  }

  /** A registrant's values of now for the keys given, in the keys' order. */
  private entry(id: number, keys: ReadonlySet<string>): Record<string, string> {
    const values = this.valuesNow(id)!;
    const entry: Record<string, string> = {};
    REGISTRANT_FIELD_KEYS.forEach((key, k) => {
      if (keys.has(key)) entry[key] = values[k]!;
    });
    return entry;
  }

  /** A registrant's values of now (undefined when its text is not its fields in order), parsed the first time they are asked for. */
  private valuesNow(id: number): readonly string[] | undefined {
    if (!this.values.has(id)) this.values.set(id, valuesOf(this.texts.get(id)!));
    return this.values.get(id);
  }

  /** The candidates, once the packs are all noted; undefined when the chunks are written fresh. */
  private decide(): Map<number, Set<string>> | undefined {
    if (this.previous === undefined) return undefined;
    if (this.candidates === undefined) {
      const candidates = new Map<number, Set<string>>();
      for (const [id, changed] of [...Object.entries(this.previous.overlay).map(([id, values]) => [Number(id), Object.keys(values)] as const), ...this.changed]) {
        if (!this.texts.has(id) || this.valuesNow(id) === undefined) continue;
        const keys = candidates.get(id) ?? new Set<string>();
        for (const key of changed) keys.add(key);
        candidates.set(id, keys);
      }
      this.candidates = this.withinBound(candidates);
    }
    return this.candidates;
  }

  /**
   * The candidates the overlay's file can hold within its bound. Past it, some are let go: every chunk
   * that holds one of them is written with the texts of now (which brings every registrant in it up to
   * date). Let go first are those whose chunks cost the least for the bytes their entry frees, by the
   * previous chunks their clients are in: a registrant of three clients is in three chunks, one of
   * 1,800 in about 1,000. So the big ones stay, where each costs its hundred bytes, and once the file
   * is full a night lets go about as many small ones as it brings. Folding the whole overlay instead
   * uploaded 73.5 % of the bundle on the eighth of the bench's nights (`npm run bench -- --phases
   * nights`), and 4.3 to 4.8 % on the others.
   */
  private withinBound(candidates: Map<number, Set<string>>): Map<number, Set<string>> {
    const entries = this.entries(candidates);
    let weight = encodeOverlay(entries).length;
    if (weight <= this.bound) return candidates;
    const chunks = new Map<number, Set<string>>();
    for (const [client, registrant] of this.clientRegistrants()) {
      if (!candidates.has(registrant)) continue;
      const chunk = this.previous!.chunkHolding(client);
      if (chunk !== undefined) (chunks.get(registrant) ?? chunks.set(registrant, new Set()).get(registrant)!).add(chunk);
    }
    const bytes = new Map([...entries].map(([id, entry]) => [id, entryBytes(id, entry)]));
    const cost = (id: number) => (chunks.get(id)?.size ?? 0) / bytes.get(id)!;
    const kept = new Map(candidates);
    for (const id of [...candidates.keys()].sort((a, b) => cost(a) - cost(b) || a - b)) {
      if (weight <= this.bound) break;
      kept.delete(id);
      // Its entry and the comma before the next.
      weight -= bytes.get(id)! + 1;
    }
    return kept;
  }
}

const encoder = new TextEncoder();

/** The bytes of one registrant's entry in the overlay's file. */
function entryBytes(id: number, entry: Readonly<Record<string, string>>): number {
  return encoder.encode(overlayEntry(id, entry)).length;
}

/** A registrant's values from its text; undefined when the text is not its fields in order. */
function valuesOf(text: string): readonly string[] | undefined {
  return fieldValues(REGISTRANT_FIELD_KEYS, text);
}

/** The keys whose values differ between two of a registrant's values; undefined when either text was not its fields in order. */
function differingKeys(before: readonly string[] | undefined, after: readonly string[] | undefined): Set<string> | undefined {
  if (before === undefined || after === undefined) return undefined;
  return new Set(REGISTRANT_FIELD_KEYS.filter((_, k) => before[k] !== after[k]));
}
