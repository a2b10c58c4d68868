import { createHash } from 'node:crypto';
import { CLIENT_FIELD_KEYS, REGISTRANT_FIELD_KEYS, type Format, type Preflight } from '../contract.ts';
import { BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkStem, registrantPackStem, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { bundleFile, hashOf, nameInBundle, type BundleFile } from '../bundle/content-names.ts';
import { encodeIndexSegment, type SegmentRow } from '../bundle/index-segment.ts';
import { encodeNameOrder } from '../bundle/name-order.ts';
import { decodeRecordTexts, encodeRecordTexts } from '../bundle/record-texts.ts';
import {
  REGISTRANT_COLUMNS,
  codeColumn,
  compareCodePoints,
  encodeRegistrantColumn,
  placeOrder,
  registrantColumnStem,
  type RegistrantColumnTypes,
} from '../bundle/registrant-columns.ts';
import { encodeTextList } from '../bundle/text-list.ts';
import { searchText } from '../bundle/search-text.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { REGISTRANT_PACKS, segmentRanges, startsChunk } from '../plan/bundle-layout.ts';
import type { BundleRows } from '../store/bundle-rows.ts';

/**
 * The files of the query bundle (bundle/bundle-manifest.ts), rendered from the store in one pass over
 * the clients in id order, then one in name order and one over the registrants. Each file is decoded
 * again as the answerer will read it and compared with what it was made from: a file that does not
 * read back is a failed build, not a wrong answer later. Every file but the manifest is named by its
 * content through `bundleFile` (bundle/content-names.ts); the manifest, written last, names them.
 */
export interface BundleSettings {
  baseUrl: string;
  headers: Record<string, string>;
  preflight?: Preflight;
  formats: readonly Format[];
  choices: BundleManifest['choices'];
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
    chunks: { firstIds: [], starts: [], hashes: [] },
    segments: [],
    nameOrder: '',
    registrants: 0,
    // Each column's name, with its content's hash, as it is written (registrantFiles).
    registrantColumns: {} as BundleManifest['registrantColumns'],
    registrantPacks: { firstIds: [], counts: [], hashes: [] },
  };
  const ids = new Float64Array(source.clientCount);
  const digest = createHash('sha256');
  const digested = function* (files: Iterable<BundleFile>): Generator<BundleFile> {
    for (const file of files) {
      digest.update(`${file.path}\0${file.data.length}\0`).update(file.data);
      yield file;
    }
  };
  yield* digested(clientFiles(source, manifest, ids));
  const nameOrder = nameOrderFile(source, ids);
  manifest.nameOrder = nameInBundle(nameOrder);
  yield* digested([nameOrder]);
  yield* digested(registrantFiles(source, manifest));
  // Everything else the manifest says (base URL, headers, layout) goes in too: the manifest without its etag.
  digest.update(JSON.stringify(manifest));
  manifest.etag = `"${digest.digest('base64url').slice(0, 22)}"`;
  yield { path: BUNDLE_MANIFEST, data: new TextEncoder().encode(`${JSON.stringify(manifest)}\n`) };
}

/** The chunks and the index segments, from one pass over the clients; fills `ids` and the manifest's lists. */
function* clientFiles(source: BundleRows, manifest: BundleManifest, ids: Float64Array): Generator<BundleFile> {
  const ranges = segmentRanges(source.clientCount);
  let chunk: { id: number; text: string; registrant: number }[] = [];
  let segment: SegmentRow[] = [];
  let index = 0;
  for (const client of source.clients()) {
    if (index >= ids.length) throw new Error(`the store holds more than the ${ids.length} clients it counted`);
    if (chunk.length > 0 && startsChunk(client.id, chunk.length)) {
      yield chunkOf(chunk, manifest);
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
      const file = bundleFile(`index/${range.start}-${range.count}`, encodeIndexSegment(range.start, segment));
      manifest.segments.push({ file: nameInBundle(file), ...range });
      yield file;
      segment = [];
    }
  }
  if (chunk.length > 0) yield chunkOf(chunk, manifest);
  if (index !== ids.length) throw new Error(`the store counted ${ids.length} clients but holds ${index}`);
}

/** A chunk of client texts, read back before it is written; its hash goes to the manifest, beside its first id. */
function chunkOf(records: { id: number; text: string; registrant: number }[], manifest: BundleManifest): BundleFile {
  const file = bundleFile(chunkStem(records[0]!.id), encodeRecordTexts(CLIENT_FIELD_KEYS, records));
  manifest.chunks.hashes.push(hashOf(file));
  const { path, data } = file;
  const back = decodeRecordTexts(data, path);
  records.forEach((record, i) => {
    if (back.ids[i] !== record.id || back.registrants?.[i] !== record.registrant || back.text(i) !== record.text) {
      throw new Error(`${path}: client ${record.id} does not read back as it was written`);
    }
  });
  return file;
}

/** The clients' global indexes in name order, and where a name repeats the one before. */
function nameOrderFile(source: BundleRows, ids: Float64Array): BundleFile {
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
  return bundleFile('order/name', encodeNameOrder(order, ties));
}

/**
 * The registrants: their texts in packs cut by id as the client chunks are (plan/bundle-layout.ts),
 * and the columns their list reads (bundle/registrant-columns.ts).
 */
function* registrantFiles(source: BundleRows, manifest: BundleManifest): Generator<BundleFile> {
  const registrants: ListedRegistrant[] = [];
  for (const { id, fields, updated } of source.registrants()) {
    // The store's instant of dt_updated; none (the oldest) is NaN here, which no range filter keeps.
    registrants.push({ id, text: fields, updated: updated === Number.MIN_SAFE_INTEGER ? Number.NaN : updated, ...(JSON.parse(`{${fields}}`) as RegistrantListFields) });
  }
  manifest.registrants = registrants.length;
  let pack: ListedRegistrant[] = [];
  for (const registrant of registrants) {
    if (pack.length > 0 && startsChunk(registrant.id, pack.length, REGISTRANT_PACKS)) {
      yield packOf(pack, manifest);
      pack = [];
    }
    if (pack.length === 0) manifest.registrantPacks.firstIds.push(registrant.id);
    pack.push(registrant);
  }
  if (pack.length > 0) yield packOf(pack, manifest);
  const columns = registrantColumns(registrants, manifest.choices);
  for (const column of REGISTRANT_COLUMNS) {
    const file = bundleFile(registrantColumnStem(column), encodeRegistrantColumn(column, columns[column]));
    manifest.registrantColumns[column] = nameInBundle(file);
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
  return {
    ids: Float64Array.from(registrants, (registrant) => registrant.id),
    codes: {
      state: codeColumn(registrants.map((registrant) => registrant.state), choices.states),
      country: codeColumn(registrants.map((registrant) => registrant.country), choices.countries),
      ppbCountry: codeColumn(registrants.map((registrant) => registrant.ppb_country), choices.countries),
    },
    updated,
    names: encodeTextList(names.map((name) => searchText(name))),
    nameOrder: placeOrder(registrants.length, (a, b) => compareCodePoints(names[a]!, names[b]!)),
    updatedOrder: placeOrder(registrants.length, byUpdated),
  };
}

/** A pack of registrant texts, read back before it is written; its hash and count go to the manifest, beside its first id. */
function packOf(registrants: readonly { id: number; text: string }[], manifest: BundleManifest): BundleFile {
  const file = bundleFile(registrantPackStem(registrants[0]!.id), encodeRecordTexts(REGISTRANT_FIELD_KEYS, registrants));
  manifest.registrantPacks.hashes.push(hashOf(file));
  manifest.registrantPacks.counts.push(registrants.length);
  const back = decodeRecordTexts(file.data, file.path);
  registrants.forEach((registrant, i) => {
    if (back.ids[i] !== registrant.id || back.text(i) !== registrant.text) throw new Error(`${file.path}: registrant ${registrant.id} does not read back as it was written`);
  });
  return file;
}
