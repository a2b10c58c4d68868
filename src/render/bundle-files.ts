import { createHash } from 'node:crypto';
import { CLIENT_FIELD_KEYS, REGISTRANT_FIELD_KEYS, type Format, type Preflight } from '../contract.ts';
import { BUNDLE_FORMAT, BUNDLE_MANIFEST, encodeManifest, keyFragmentStem, orderFragmentStem, registrantKeyStem, type BundleManifest, type ManifestSegment } from '../bundle/bundle-manifest.ts';
import { bundleFile, hashOf, hashedName, nameInBundle, type BundleFile } from '../bundle/content-names.ts';
import { chunkStem, decodeRecordDirectory, directoryStem, encodeRecordDirectory, recordFileStem, registrantPackStem, type DirectoryEntries, type DirectoryKind } from '../bundle/record-directory.ts';
import { encodeKeyIndex, type SegmentKeyRows, type ValueField } from '../bundle/key-index.ts';
import { clientOrderFragments, nameFieldOrder } from '../bundle/field-orders.ts';
import { ORDER_PLACES } from '../bundle/order-fragments.ts';
import { decodeRecordTexts, encodeRecordTexts } from '../bundle/record-texts.ts';
import {
  REGISTRANT_COLUMNS,
  codeColumn,
  compareCodePoints,
  encodeRegistrantColumn,
  placeOrder,
  ranksOf,
  registrantColumnStem,
  type RegistrantColumnTypes,
} from '../bundle/registrant-columns.ts';
import { encodeRegistrantKeys } from '../bundle/registrant-keys.ts';
import { searchText } from '../bundle/search-text.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { REGISTRANT_PACKS, keyFragmentCount, segmentRanges, startsChunk } from '../plan/bundle-layout.ts';
import { RegistrantOverlay, type ChunkClient, type PreviousBundle } from './registrant-overlay.ts';
import type { BundleRows } from '../store/bundle-rows.ts';

/**
 * The files of the query bundle (bundle/bundle-manifest.ts), rendered from the store in one pass over
 * the registrants, then one over the clients in id order and one in name order. Each file is decoded
 * again as the answerer will read it and compared with what it was made from: a file that does not
 * read back is a failed build, not a wrong answer later. Every file but the manifest is named by its
 * content through `bundleFile` (bundle/content-names.ts); the manifest, written last, names them.
 * Over a previous build, a client chunk whose clients did not change keeps its bytes, and the
 * registrants it holds otherwise than now go to the overlay (registrant-overlay.ts).
 */
export interface BundleSettings {
  baseUrl: string;
  headers: Record<string, string>;
  preflight?: Preflight;
  formats: readonly Format[];
  choices: BundleManifest['choices'];
  /** The previous build's bundle, whose unchanged chunks are kept (registrant-overlay.ts); none: a fresh bundle. */
  previous?: PreviousBundle;
}

export type { BundleFile };

export function* bundleFiles(source: BundleRows, settings: BundleSettings): Generator<BundleFile> {
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    baseUrl: settings.baseUrl,
    headers: settings.headers,
    ...(settings.preflight === undefined ? {} : { preflight: settings.preflight }),
    formats: [...settings.formats],
    choices: settings.choices,
    clients: source.clientCount,
    chunks: { count: 0, file: '' },
    segments: [],
    orders: { places: ORDER_PLACES, nullDates: 0, name: [], date: [] },
    registrants: 0,
    // Each column's name, with its content's hash, as it is written (registrantFiles).
    registrantColumns: {} as BundleManifest['registrantColumns'],
    registrantPacks: { count: 0, file: '' },
    registrantKeys: { firstKeys: [], hashes: [], maxNameBytes: 0, words: [] },
  };
  const clients = new ClientColumns(source.clientCount);
  const registrantTexts = new Map<number, string>();
  for (const { id, fields } of source.registrants()) registrantTexts.set(id, fields);
  const overlay = new RegistrantOverlay(settings.previous, registrantTexts, { clientRegistrants: () => source.clientRegistrants() });
  // The ETag digests what a fresh build would write (the chunks with the texts of now, no overlay):
  // the answers are the same, so is their ETag.
  const digest = createHash('sha256');
  const digested = function* (files: Iterable<BundleFile & { fresh?: BundleFile }>): Generator<BundleFile> {
    for (const file of files) {
      const { path, data } = file.fresh ?? file;
      digest.update(`${path}\0${data.length}\0`).update(data);
      yield { path: file.path, data: file.data };
    }
  };
  // The registrants first: their packs, compared with the previous build's, say which registrants
  // changed, which decides what the chunks keep (registrant-overlay.ts).
  yield* digested(registrantFiles(source, manifest, overlay));
  const chunks: DirectoryEntries = { firstIds: [], starts: [], hashes: [] };
  const freshHashes: string[] = [];
  yield* digested(clientFiles(source, manifest, chunks, clients, registrantTexts, overlay, freshHashes));
  const directory = directoryFile('chunks', chunks);
  // The directory a fresh build would write: this one, unless a chunk kept an earlier build's bytes.
  const freshDirectory = freshHashes.every((hash, k) => hash === chunks.hashes[k]) ? directory : directoryFile('chunks', { ...chunks, hashes: freshHashes });
  yield* digested([{ ...directory, fresh: freshDirectory }]);
  manifest.chunks = { count: chunks.firstIds.length, file: nameInBundle(directory) };
  yield* digested(orderFiles(source, manifest, clients));
  // Everything else the manifest says (base URL, headers, layout) goes in too: the manifest without its
  // etag, as a fresh build has it.
  digest.update(JSON.stringify({ ...manifest, chunks: { ...manifest.chunks, file: nameInBundle(freshDirectory) } }));
  manifest.etag = `"${digest.digest('base64url').slice(0, 22)}"`;
  const kept = overlay.file();
  if (kept !== undefined) {
    manifest.overlay = { ids: kept.ids, file: nameInBundle(kept.file) };
    yield kept.file;
  }
  yield { path: BUNDLE_MANIFEST, data: new TextEncoder().encode(encodeManifest(manifest)) };
}

/** What the orders need of every client, by global index, gathered in the pass in id order. */
class ClientColumns {
  readonly ids: Float64Array;
  /** YYYYMMDD, or -1 for none. */
  readonly dates: Int32Array;
  count = 0;
  constructor(total: number) {
    this.ids = new Float64Array(total);
    this.dates = new Int32Array(total);
  }
}

/** The chunks' or the packs' directory (bundle/record-directory.ts), read back as the answerer reads it: each file's start and name. */
function directoryFile(kind: DirectoryKind, entries: DirectoryEntries): BundleFile {
  const file = bundleFile(directoryStem(kind), encodeRecordDirectory(kind, entries));
  const read = decodeRecordDirectory(kind, file.data, file.path);
  const differs = (k: number) => read.starts[k] !== entries.starts[k] || read.file(k) !== hashedName(recordFileStem(kind, entries.firstIds[k]!), entries.hashes[k]!);
  if (read.count !== entries.firstIds.length || entries.firstIds.some((_, k) => differs(k))) throw new Error(`${file.path}: the ${kind} directory does not read back as written`);
  return file;
}

/**
 * The chunks (each with its clients' registrants' texts) and the index segments' key indexes, from one
 * pass over the clients in id order; fills `clients`, the chunks' directory and the manifest's lists.
 */
function* clientFiles(
  source: BundleRows,
  manifest: BundleManifest,
  chunks: DirectoryEntries,
  clients: ClientColumns,
  registrantTexts: ReadonlyMap<number, string>,
  overlay: RegistrantOverlay,
  freshHashes: string[],
): Generator<BundleFile & { fresh?: BundleFile }> {
  const chunkFile = (chunk: ChunkClient[]) => {
    const fresh = chunkOf(chunk, registrantTexts);
    const file = overlay.chunk(fresh, chunk);
    chunks.hashes.push(hashOf(file));
    freshHashes.push(hashOf(fresh));
    return { ...file, fresh };
  };
  const ranges = segmentRanges(source.clientCount);
  let chunk: ChunkClient[] = [];
  let segment = emptyRows();
  const total = clients.ids.length;
  for (const client of source.clients()) {
    const index = clients.count;
    if (index >= total) throw new Error(`the store holds more than the ${total} clients it counted`);
    if (chunk.length > 0 && startsChunk(client.id, chunk.length)) {
      yield chunkFile(chunk);
      chunk = [];
    }
    if (chunk.length === 0) {
      chunks.firstIds.push(client.id);
      chunks.starts.push(index);
    }
    chunk.push({ id: client.id, text: client.fields, registrant: client.registrantId });
    segment.names.push(searchText(client.name));
    segment.values.state.push(client.state);
    segment.values.country.push(client.country);
    segment.values.ppbState.push(client.ppbState);
    segment.values.ppbCountry.push(client.ppbCountry);
    segment.values.registrant.push(client.registrantId);
    clients.ids[index] = client.id;
    clients.dates[index] = client.effectiveDate === null ? -1 : Number(client.effectiveDate.replaceAll('-', ''));
    clients.count++;
    const range = ranges[manifest.segments.length]!;
    if (segment.names.length === range.count) {
      yield* segmentFiles(range, segment, manifest);
      segment = emptyRows();
    }
  }
  if (chunk.length > 0) yield chunkFile(chunk);
  if (clients.count !== total) throw new Error(`the store counted ${total} clients but holds ${clients.count}`);
}

type Rows = SegmentKeyRows & { names: string[]; values: Record<ValueField, (string | number | null)[]> };

function emptyRows(): Rows {
  return { names: [], values: { state: [], country: [], ppbState: [], ppbCountry: [], registrant: [] } };
}

/** A segment's key index, in fragments (bundle/key-index.ts), each named by its content. */
function* segmentFiles(range: { start: number; count: number }, rows: SegmentKeyRows, manifest: BundleManifest): Generator<BundleFile> {
  const { fragments, maxNameBytes, words } = encodeKeyIndex(rows, { fragments: keyFragmentCount(range.count) });
  const segment: ManifestSegment = { ...range, keys: { firstKeys: [], hashes: [] }, maxNameBytes, words };
  for (const [k, fragment] of fragments.entries()) {
    const file = bundleFile(keyFragmentStem(range, k), fragment.data);
    segment.keys.firstKeys.push(fragment.firstKey);
    segment.keys.hashes.push(hashOf(file));
    yield file;
  }
  manifest.segments.push(segment);
}

/** A chunk of client texts with the texts of the registrants they embed (those of now), read back before it is written. */
function chunkOf(records: ChunkClient[], registrantTexts: ReadonlyMap<number, string>): BundleFile {
  const registrants = [...new Set(records.map((record) => record.registrant))].sort((a, b) => a - b).map((id) => {
    const text = registrantTexts.get(id);
    if (text === undefined) throw new Error(`client ${records.find((record) => record.registrant === id)!.id} embeds registrant ${id}, which the store does not hold`);
    return { id, text };
  });
  const file = bundleFile(chunkStem(records[0]!.id), encodeRecordTexts(CLIENT_FIELD_KEYS, records, { keys: REGISTRANT_FIELD_KEYS, records: registrants }));
  const { path, data } = file;
  const back = decodeRecordTexts(data, path);
  records.forEach((record, i) => {
    const registrant = back.embedded?.find(record.registrant) ?? -1;
    if (back.ids[i] !== record.id || back.registrants?.[i] !== record.registrant || back.text(i) !== record.text || registrant < 0 || back.embedded!.text(registrant) !== registrantTexts.get(record.registrant)) {
      throw new Error(`${path}: client ${record.id} does not read back as it was written`);
    }
  });
  return file;
}

/**
 * The name order (from the store, which sorts names by code point, ties by id) and the date order
 * (bundle/field-orders.ts), each with the other's ranks, in fragments (bundle/order-fragments.ts).
 */
function* orderFiles(source: BundleRows, manifest: BundleManifest, clients: ClientColumns): Generator<BundleFile> {
  const total = clients.count;
  const order = new Uint32Array(total);
  const ties = new Uint8Array(total);
  let place = 0;
  let previous: string | undefined;
  for (const { id, name } of source.clientsByName()) {
    const index = sortedIndexOf(clients.ids, id);
    if (index < 0 || place >= total) throw new Error(`client ${id} in name order is not among the clients in id order`);
    order[place] = index;
    ties[place++] = name === previous ? 1 : 0;
    previous = name;
  }
  if (place !== total) throw new Error(`${place} clients in name order, ${total} in id order`);
  const fragments = clientOrderFragments(nameFieldOrder(order, ties), clients.dates);
  manifest.orders.nullDates = fragments.nullDates;
  for (const field of ['name', 'date'] as const) {
    for (const [k, data] of fragments[field].entries()) {
      const file = bundleFile(orderFragmentStem(field, k), data);
      manifest.orders[field].push(hashOf(file));
      yield file;
    }
  }
}

/**
 * The registrants: their texts in packs cut by id as the client chunks are (plan/bundle-layout.ts),
 * the columns their list reads (bundle/registrant-columns.ts), and their names' key index
 * (bundle/registrant-keys.ts).
 */
function* registrantFiles(source: BundleRows, manifest: BundleManifest, overlay: RegistrantOverlay): Generator<BundleFile> {
  const registrants: ListedRegistrant[] = [];
  for (const { id, fields, updated } of source.registrants()) {
    // The store's instant of dt_updated; none (the oldest) is NaN here, which no range filter keeps.
    registrants.push({ id, text: fields, updated: updated === Number.MIN_SAFE_INTEGER ? Number.NaN : updated, ...(JSON.parse(`{${fields}}`) as RegistrantListFields) });
  }
  manifest.registrants = registrants.length;
  const packs: DirectoryEntries = { firstIds: [], starts: [], hashes: [] };
  let pack: ListedRegistrant[] = [];
  for (const [place, registrant] of registrants.entries()) {
    if (pack.length > 0 && startsChunk(registrant.id, pack.length, REGISTRANT_PACKS)) {
      yield packOf(pack, packs, overlay);
      pack = [];
    }
    if (pack.length === 0) {
      packs.firstIds.push(registrant.id);
      packs.starts.push(place);
    }
    pack.push(registrant);
  }
  if (pack.length > 0) yield packOf(pack, packs, overlay);
  const directory = directoryFile('packs', packs);
  manifest.registrantPacks = { count: packs.firstIds.length, file: nameInBundle(directory) };
  yield directory;
  const columns = registrantColumns(registrants, manifest.choices);
  for (const column of REGISTRANT_COLUMNS) {
    const file = bundleFile(registrantColumnStem(column), encodeRegistrantColumn(column, columns[column]));
    manifest.registrantColumns[column] = nameInBundle(file);
    yield file;
  }
  const { fragments, maxNameBytes, words } = encodeRegistrantKeys(
    registrants.map((registrant) => searchText(typeof registrant.name === 'string' ? registrant.name : '')),
    keyFragmentCount(registrants.length),
  );
  manifest.registrantKeys.maxNameBytes = maxNameBytes;
  manifest.registrantKeys.words = words;
  for (const [k, fragment] of fragments.entries()) {
    const file = bundleFile(registrantKeyStem(k), fragment.data);
    manifest.registrantKeys.firstKeys.push(fragment.firstKey);
    manifest.registrantKeys.hashes.push(hashOf(file));
    yield file;
  }
}

/** The fields of a registrant the list filters and sorts on (contract section 10). */
interface RegistrantListFields {
  name?: unknown;
  state?: unknown;
  country?: unknown;
  ppb_country?: unknown;
}

type ListedRegistrant = RegistrantListFields & { id: number; text: string; updated: number };

/** The registrants' columns (bundle/registrant-columns.ts), in id order. */
function registrantColumns(registrants: readonly ListedRegistrant[], choices: BundleManifest['choices']): RegistrantColumnTypes {
  const names = registrants.map((registrant) => (typeof registrant.name === 'string' ? registrant.name : ''));
  // No dt_updated sorts before every instant, in either direction's reverse.
  const updated = Float64Array.from(registrants, (registrant) => registrant.updated);
  const byUpdated = (a: number, b: number) => (Number.isNaN(updated[a]!) ? -Infinity : updated[a]!) - (Number.isNaN(updated[b]!) ? -Infinity : updated[b]!) || 0;
  const nameOrder = placeOrder(registrants.length, (a, b) => compareCodePoints(names[a]!, names[b]!));
  const updatedOrder = placeOrder(registrants.length, byUpdated);
  return {
    ids: Float64Array.from(registrants, (registrant) => registrant.id),
    filters: {
      state: codeColumn(registrants.map((registrant) => registrant.state), choices.states),
      country: codeColumn(registrants.map((registrant) => registrant.country), choices.countries),
      ppbCountry: codeColumn(registrants.map((registrant) => registrant.ppb_country), choices.countries),
      updated,
    },
    nameOrder,
    updatedOrder,
    ranks: { name: ranksOf(nameOrder), updated: ranksOf(updatedOrder) },
  };
}

/** A pack of registrant texts, read back before it is written; its hash goes to the packs' directory, beside its first id and start. */
function packOf(registrants: readonly { id: number; text: string }[], packs: DirectoryEntries, overlay: RegistrantOverlay): BundleFile {
  const file = bundleFile(registrantPackStem(registrants[0]!.id), encodeRecordTexts(REGISTRANT_FIELD_KEYS, registrants));
  packs.hashes.push(hashOf(file));
  const back = decodeRecordTexts(file.data, file.path);
  registrants.forEach((registrant, i) => {
    if (back.ids[i] !== registrant.id || back.text(i) !== registrant.text) throw new Error(`${file.path}: registrant ${registrant.id} does not read back as it was written`);
  });
  overlay.notePack(registrants, file);
  return file;
}
