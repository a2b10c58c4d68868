import { CLIENT_FIELD_KEYS, REGISTRANT_FIELD_KEYS, type Format } from '../contract.ts';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkFile, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { encodeIndexSegment, type SegmentRow } from '../bundle/index-segment.ts';
import { encodeNameOrder } from '../bundle/name-order.ts';
import { decodeRecordTexts, encodeRecordTexts } from '../bundle/record-texts.ts';
import { encodeRegistrantDigests } from '../bundle/registrant-digests.ts';
import { encodeRegistrantIndex } from '../bundle/registrant-index.ts';
import { NO_CODE, compareCodePoints, encodeRegistrantColumns, type RegistrantColumns } from '../bundle/registrant-columns.ts';
import { readDateTime } from '../answer/date-time-form.ts';
import { searchText } from '../bundle/search-text.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { segmentRanges, startsChunk } from '../plan/bundle-layout.ts';
import { textHash, type PackPlan } from '../plan/registrant-packs.ts';
import type { BundleRows } from '../store/bundle-rows.ts';

/**
 * The files of the query bundle (bundle/bundle-manifest.ts), rendered from the store in one pass over
 * the clients in id order, then one in name order and one over the registrants. Each file is decoded
 * again as the answerer will read it and compared with what it was made from: a file that does not
 * read back is a failed build, not a wrong answer later.
 */
export interface BundleSettings {
  baseUrl: string;
  formats: readonly Format[];
  choices: BundleManifest['choices'];
  /** The plan of the registrant packs (made while planning), and the previous build's bundle when it keeps its base. */
  packs: PackPlan;
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

export function* bundleFiles(source: BundleRows, settings: BundleSettings): Generator<BundleFile> {
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    baseUrl: settings.baseUrl,
    formats: [...settings.formats],
    choices: settings.choices,
    clients: source.clientCount,
    chunks: { firstIds: [], starts: [] },
    segments: [],
    nameOrder: 'order/name.bin',
    registrants: 0,
    registrantIndex: 'registrants/index.bin',
    registrantColumns: 'registrants/columns.bin',
    registrantPacks: [],
    registrantOverlay: null,
    registrantDigests: 'registrants/base-digests.bin',
  };
  const ids = new Float64Array(source.clientCount);
  yield* clientFiles(source, manifest, ids);
  yield nameOrderFile(source, manifest, ids);
  yield* registrantFiles(source, manifest, settings.packs, settings.previous);
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
  const data = encodeRecordTexts(CLIENT_FIELD_KEYS, records);
  const back = decodeRecordTexts(data, path);
  records.forEach((record, i) => {
    if (back.ids[i] !== record.id || back.registrants?.[i] !== record.registrant || back.text(i) !== record.text) {
      throw new Error(`${path}: client ${record.id} does not read back as it was written`);
    }
  });
  return { path, data };
}

/** The clients' global indexes in name order, and where a name repeats the one before. */
function nameOrderFile(source: BundleRows, manifest: BundleManifest, ids: Float64Array): BundleFile {
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

/**
 * The registrant index (ids and names, for `registrant_name`), and their texts in packs as the plan
 * says (plan/registrant-packs.ts): a new base cut where the plan cuts it, with its digests; or the
 * previous base's files as they were, and an overlay of the registrants the plan names.
 */
function* registrantFiles(source: BundleRows, manifest: BundleManifest, plan: PackPlan, previous: PreviousPacks | undefined): Generator<BundleFile> {
  const registrants: ListedRegistrant[] = [];
  for (const { id, fields } of source.registrants()) registrants.push({ id, text: fields, ...(JSON.parse(`{${fields}}`) as RegistrantListFields) });
  manifest.registrants = registrants.length;
  const searchNames = registrants.map((registrant) => ({ id: registrant.id, searchName: typeof registrant.name === 'string' ? searchText(registrant.name) : '' }));
  yield { path: `${BUNDLE_FOLDER}${manifest.registrantIndex}`, data: encodeRegistrantIndex(searchNames) };
  yield { path: `${BUNDLE_FOLDER}${manifest.registrantColumns}`, data: encodeRegistrantColumns(registrantColumns(registrants, manifest.choices)) };

  if (plan.kind === 'kept') {
    if (previous === undefined) throw new Error('the plan keeps the previous registrant packs, but there is no previous build');
    for (const entry of [...plan.packs.map((pack) => pack.file), manifest.registrantDigests]) {
      const data = previous.read(entry);
      if (data === undefined) throw new Error(`the plan keeps bundle/${entry} of the previous build, which has no such file`);
      yield { path: `${BUNDLE_FOLDER}${entry}`, data };
    }
    manifest.registrantPacks = plan.packs;
    const overlay = new Set(plan.overlay);
    if (overlay.size > 0) {
      manifest.registrantOverlay = 'registrants/overlay.bin';
      yield packOf(manifest.registrantOverlay, registrants.filter((registrant) => overlay.has(registrant.id)));
    }
    return;
  }
  plan.starts.forEach((start, i) => {
    const end = plan.starts[i + 1] ?? registrants.length;
    manifest.registrantPacks.push({ file: `registrants/base-${registrants[start]!.id}.bin`, firstId: registrants[start]!.id, lastId: registrants[end - 1]!.id });
  });
  for (const [i, pack] of manifest.registrantPacks.entries()) yield packOf(pack.file, registrants.slice(plan.starts[i], plan.starts[i + 1]));
  const digests = registrants.map((registrant) => ({ id: registrant.id, hash: textHash(registrant.text), length: registrant.text.length }));
  yield { path: `${BUNDLE_FOLDER}${manifest.registrantDigests}`, data: encodeRegistrantDigests(digests) };
}

/** The fields of a registrant the list filters and sorts on (contract section 10). */
interface RegistrantListFields {
  name?: unknown;
  state?: unknown;
  country?: unknown;
  ppb_country?: unknown;
  dt_updated?: unknown;
}

type ListedRegistrant = RegistrantListFields & { id: number; text: string };

/** The registrants' columns (bundle/registrant-columns.ts), in id order. */
function registrantColumns(registrants: readonly ListedRegistrant[], choices: BundleManifest['choices']): RegistrantColumns {
  const code = (value: unknown, list: readonly string[]) => {
    const at = typeof value === 'string' ? list.indexOf(value) : -1;
    return at < 0 ? NO_CODE : at;
  };
  const nameOf = (registrant: ListedRegistrant) => (typeof registrant.name === 'string' ? registrant.name : '');
  const byName = registrants.map((_, i) => i).sort((a, b) => compareCodePoints(nameOf(registrants[a]!), nameOf(registrants[b]!)) || a - b);
  const nameRank = new Uint32Array(registrants.length);
  let rank = -1;
  byName.forEach((i, place) => {
    if (place === 0 || nameOf(registrants[byName[place - 1]!]!) !== nameOf(registrants[i]!)) rank++;
    nameRank[i] = rank;
  });
  return {
    ids: Float64Array.from(registrants, (registrant) => registrant.id),
    state: Uint16Array.from(registrants, (registrant) => code(registrant.state, choices.states)),
    country: Uint16Array.from(registrants, (registrant) => code(registrant.country, choices.countries)),
    ppbCountry: Uint16Array.from(registrants, (registrant) => code(registrant.ppb_country, choices.countries)),
    updated: Float64Array.from(registrants, (registrant) => (typeof registrant.dt_updated === 'string' ? (readDateTime(registrant.dt_updated) ?? Number.NaN) : Number.NaN)),
    nameRank,
  };
}

/** A pack of registrant texts, read back before it is written. */
function packOf(file: string, registrants: readonly { id: number; text: string }[]): BundleFile {
  const path = `${BUNDLE_FOLDER}${file}`;
  const data = encodeRecordTexts(REGISTRANT_FIELD_KEYS, registrants);
  const back = decodeRecordTexts(data, path);
  registrants.forEach((registrant, i) => {
    if (back.ids[i] !== registrant.id || back.text(i) !== registrant.text) throw new Error(`${path}: registrant ${registrant.id} does not read back as it was written`);
  });
  return { path, data };
}
