import type { Format } from '../contract.ts';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkFile, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { encodeIndexSegment, type SegmentRow } from '../bundle/index-segment.ts';
import { encodeNameOrder } from '../bundle/name-order.ts';
import { decodeRecordTexts, encodeRecordTexts } from '../bundle/record-texts.ts';
import { encodeRegistrantIndex } from '../bundle/registrant-index.ts';
import { searchText } from '../bundle/search-text.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { segmentRanges, startsChunk } from '../plan/bundle-layout.ts';

/**
 * The files of the query bundle (bundle/bundle-manifest.ts), rendered from the store in one pass over
 * the clients in id order, then one in name order and one over the registrants. Each file is decoded
 * again as the answerer will read it and compared with what it was made from: a file that does not
 * read back is a failed build, not a wrong answer later.
 */
export interface BundleClientRow {
  id: number;
  name: string;
  /** JSON text of the keys between `url` and `registrant`. */
  fields: string;
  registrantId: number;
  effectiveDate: string | null;
  state: string | null;
  country: string | null;
  ppbState: string | null;
  ppbCountry: string | null;
}

export interface BundleSource {
  clientCount: number;
  /** Every client, by ascending id. */
  clients(): Iterable<BundleClientRow>;
  /** Every client's id, by ascending name (by code point) then id. */
  clientsByName(): Iterable<{ id: number; name: string }>;
  /** Every registrant some client embeds, by ascending id, with its fields' JSON text. */
  registrants(): Iterable<{ id: number; fields: string }>;
}

export interface BundleSettings {
  baseUrl: string;
  formats: readonly Format[];
  choices: BundleManifest['choices'];
  /** The previous build's registrant packs, whose base is kept while the changes since it stay small. */
  previous?: PreviousPacks;
}

/** The previous build's manifest, and its bundle files by name (under bundle/), read on demand. */
export interface PreviousPacks {
  manifest: BundleManifest;
  read(file: string): Uint8Array | undefined;
}

export interface BundleFile {
  path: string;
  data: Uint8Array;
}

export function* bundleFiles(source: BundleSource, settings: BundleSettings): Generator<BundleFile> {
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    baseUrl: settings.baseUrl,
    formats: [...settings.formats],
    choices: settings.choices,
    clients: source.clientCount,
    chunks: { firstIds: [], starts: [] },
    segments: [],
    nameOrder: 'order/name.bin',
    registrantIndex: 'registrants/index.bin',
    registrantPacks: [],
    registrantOverlay: null,
  };
  const ids = new Float64Array(source.clientCount);
  yield* clientFiles(source, manifest, ids);
  yield nameOrderFile(source, manifest, ids);
  yield* registrantFiles(source, manifest, settings.previous);
  yield { path: BUNDLE_MANIFEST, data: new TextEncoder().encode(`${JSON.stringify(manifest)}\n`) };
}

/** The chunks and the index segments, from one pass over the clients; fills `ids` and the manifest's lists. */
function* clientFiles(source: BundleSource, manifest: BundleManifest, ids: Float64Array): Generator<BundleFile> {
  const ranges = segmentRanges(source.clientCount);
  let chunk: { id: number; text: string; registrant: number }[] = [];
  let segment: SegmentRow[] = [];
  let index = 0;
  for (const client of source.clients()) {
    if (index >= ids.length) throw new Error(`the store holds more than the ${ids.length} clients it counted`);
    if (chunk.length > 0 && startsChunk(client.id, chunk.length)) {
      yield chunkOf(chunk);
      chunk = [];
    }
    if (chunk.length === 0) {
      manifest.chunks.firstIds.push(client.id);
      manifest.chunks.starts.push(index);
    }
    chunk.push({ id: client.id, text: client.fields, registrant: client.registrantId });
    segment.push({
      registrant: client.registrantId,
      date: client.effectiveDate === null ? -1 : Number(client.effectiveDate.replaceAll('-', '')),
      codes: { state: client.state, country: client.country, ppbState: client.ppbState, ppbCountry: client.ppbCountry },
      searchName: searchText(client.name),
    });
    ids[index++] = client.id;
    const range = ranges[manifest.segments.length]!;
    if (segment.length === range.count) {
      const file = `index/${range.start}-${range.count}.bin`;
      manifest.segments.push({ file, ...range });
      yield { path: `${BUNDLE_FOLDER}${file}`, data: encodeIndexSegment(range.start, segment) };
      segment = [];
    }
  }
  if (chunk.length > 0) yield chunkOf(chunk);
  if (index !== ids.length) throw new Error(`the store counted ${ids.length} clients but holds ${index}`);
}

function chunkOf(records: { id: number; text: string; registrant: number }[]): BundleFile {
  const path = `${BUNDLE_FOLDER}${chunkFile(records[0]!.id)}`;
  const data = encodeRecordTexts(records);
  const back = decodeRecordTexts(data, path);
  records.forEach((record, i) => {
    if (back.ids[i] !== record.id || back.registrants?.[i] !== record.registrant || back.text(i) !== record.text) {
      throw new Error(`${path}: client ${record.id} does not read back as it was written`);
    }
  });
  return { path, data };
}

/** The clients' global indexes in name order, and where a name repeats the one before. */
function nameOrderFile(source: BundleSource, manifest: BundleManifest, ids: Float64Array): BundleFile {
  const order = new Uint32Array(ids.length);
  const ties = new Uint8Array(ids.length);
  let place = 0;
  let previous: string | undefined;
  for (const { id, name } of source.clientsByName()) {
    const index = sortedIndexOf(ids, id);
    if (index < 0 || place >= order.length) throw new Error(`client ${id} in name order is not among the clients in id order`);
    order[place] = index;
    ties[place++] = name === previous ? 1 : 0;
    previous = name;
  }
  if (place !== order.length) throw new Error(`${place} clients in name order, ${order.length} in id order`);
  return { path: `${BUNDLE_FOLDER}${manifest.nameOrder}`, data: encodeNameOrder(order, ties) };
}

/** Text of the registrants' base packs, each at most about this many UTF-16 units. */
const PACK_TEXT = 2 * 1024 * 1024;
/** The overlay is folded into a new base once it holds more than this share of the base's text. */
const OVERLAY_SHARE = 1 / 8;

/**
 * The registrant index (ids and names, for `registrant_name`), and their texts in packs: the base
 * of the previous build is kept, and the registrants whose text differs from it (or that it lacks)
 * go to the overlay, until the overlay outgrows an eighth of the base; then a new base holds all.
 */
function* registrantFiles(source: BundleSource, manifest: BundleManifest, previous: PreviousPacks | undefined): Generator<BundleFile> {
  const registrants: { id: number; text: string; searchName: string }[] = [];
  for (const { id, fields } of source.registrants()) {
    const name = (JSON.parse(`{${fields}}`) as { name?: unknown }).name;
    registrants.push({ id, text: fields, searchName: typeof name === 'string' ? searchText(name) : '' });
  }
  yield { path: `${BUNDLE_FOLDER}${manifest.registrantIndex}`, data: encodeRegistrantIndex(registrants) };

  const base = previous === undefined ? undefined : previousBase(previous);
  if (base !== undefined) {
    const overlay = registrants.filter((registrant) => base.texts.get(registrant.id) !== registrant.text);
    const overlayText = overlay.reduce((sum, registrant) => sum + registrant.text.length, 0);
    if (overlayText <= base.textLength * OVERLAY_SHARE) {
      for (const part of base.parts) {
        manifest.registrantPacks.push(part.entry);
        yield { path: `${BUNDLE_FOLDER}${part.entry.file}`, data: part.data };
      }
      if (overlay.length > 0) {
        manifest.registrantOverlay = 'registrants/overlay.bin';
        yield { path: `${BUNDLE_FOLDER}${manifest.registrantOverlay}`, data: encodeRecordTexts(overlay) };
      }
      return;
    }
  }
  let part: typeof registrants = [];
  let length = 0;
  const flush = function* (): Generator<BundleFile> {
    const file = `registrants/base-${part[0]!.id}.bin`;
    manifest.registrantPacks.push({ file, firstId: part[0]!.id, lastId: part.at(-1)!.id });
    yield { path: `${BUNDLE_FOLDER}${file}`, data: encodeRecordTexts(part) };
    part = [];
    length = 0;
  };
  for (const registrant of registrants) {
    part.push(registrant);
    length += registrant.text.length;
    if (length >= PACK_TEXT) yield* flush();
  }
  if (part.length > 0) yield* flush();
}

/** The previous build's base packs, their bytes as they were, and the texts they hold; undefined when unreadable. */
function previousBase(previous: PreviousPacks): { parts: { entry: BundleManifest['registrantPacks'][number]; data: Uint8Array }[]; texts: Map<number, string>; textLength: number } | undefined {
  if (previous.manifest.format !== BUNDLE_FORMAT) return undefined;
  const parts: { entry: BundleManifest['registrantPacks'][number]; data: Uint8Array }[] = [];
  const texts = new Map<number, string>();
  let textLength = 0;
  for (const entry of previous.manifest.registrantPacks) {
    const data = previous.read(entry.file);
    if (data === undefined) return undefined;
    const pack = decodeRecordTexts(data, entry.file);
    for (let i = 0; i < pack.count; i++) {
      const text = pack.text(i);
      texts.set(pack.ids[i]!, text);
      textLength += text.length;
    }
    parts.push({ entry, data });
  }
  return parts.length === 0 ? undefined : { parts, texts, textLength };
}
