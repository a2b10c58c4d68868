import { createHash } from 'node:crypto';
import { CLIENT_FIELD_KEYS, REGISTRANT_FIELD_KEYS, type Format, type Preflight } from '../contract.ts';
import { BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkStem, type BundleManifest } from '../bundle/bundle-manifest.ts';
import { bundleFile, hashOf, nameInBundle, stemOf, type BundleFile } from '../bundle/content-names.ts';
import { encodeIndexSegment, type SegmentRow } from '../bundle/index-segment.ts';
import { encodeNameOrder } from '../bundle/name-order.ts';
import { decodeRecordTexts, encodeRecordTexts } from '../bundle/record-texts.ts';
import { encodeRegistrantDigests } from '../bundle/registrant-digests.ts';
import { encodeRegistrantIndex } from '../bundle/registrant-index.ts';
import { searchText } from '../bundle/search-text.ts';
import { sortedIndexOf } from '../bundle/sorted-arrays.ts';
import { segmentRanges, startsChunk } from '../plan/bundle-layout.ts';
import { textHash, type PackPlan } from '../bundle/registrant-packs.ts';
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
  /** The plan of the registrant packs (made while planning), and the previous build's bundle when it keeps its base. */
  packs: PackPlan;
  previous?: PreviousPacks;
}

/** The previous build's manifest, and its bundle files by name (under bundle/), read on demand. */
export interface PreviousPacks {
  manifest: BundleManifest;
  read(file: string): Uint8Array | undefined;
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
    registrantIndex: '',
    registrantPacks: [],
    registrantOverlay: null,
    registrantDigests: '',
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
  yield* digested(registrantFiles(source, manifest, settings.packs, settings.previous));
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
 * The registrant index (ids and names, for `registrant_name`), and their texts in packs as the plan
 * says (bundle/registrant-packs.ts): a new base cut where the plan cuts it, with its digests; or the
 * previous base's files as they were, and an overlay of the registrants the plan names.
 */
function* registrantFiles(source: BundleRows, manifest: BundleManifest, plan: PackPlan, previous: PreviousPacks | undefined): Generator<BundleFile> {
  const registrants: { id: number; text: string; searchName: string }[] = [];
  for (const { id, fields } of source.registrants()) {
    const name = (JSON.parse(`{${fields}}`) as { name?: unknown }).name;
    registrants.push({ id, text: fields, searchName: typeof name === 'string' ? searchText(name) : '' });
  }
  const index = bundleFile('registrants/index', encodeRegistrantIndex(registrants));
  manifest.registrantIndex = nameInBundle(index);
  yield index;

  if (plan.kind === 'kept') {
    if (previous === undefined) throw new Error('the plan keeps the previous registrant packs, but there is no previous build');
    const kept = [...plan.packs.map((pack) => pack.file), previous.manifest.registrantDigests];
    const files = kept.map((name) => {
      const data = previous.read(name);
      if (data === undefined) throw new Error(`the plan keeps bundle/${name} of the previous build, which has no such file`);
      // The same bytes get the same name: a previous file damaged since would be named by its new bytes, and refused here.
      const file = bundleFile(stemOf(name), data);
      if (nameInBundle(file) !== name) throw new Error(`bundle/${name} of the previous build does not match its name: build again with --force`);
      return file;
    });
    yield* files;
    manifest.registrantPacks = plan.packs;
    manifest.registrantDigests = kept.at(-1)!;
    const overlay = new Set(plan.overlay);
    if (overlay.size > 0) {
      const file = packOf('registrants/overlay', registrants.filter((registrant) => overlay.has(registrant.id)));
      manifest.registrantOverlay = nameInBundle(file);
      yield file;
    }
    return;
  }
  for (const [i, start] of plan.starts.entries()) {
    const end = plan.starts[i + 1] ?? registrants.length;
    const file = packOf(`registrants/base-${registrants[start]!.id}`, registrants.slice(start, end));
    manifest.registrantPacks.push({ file: nameInBundle(file), firstId: registrants[start]!.id, lastId: registrants[end - 1]!.id });
    yield file;
  }
  const digests = registrants.map((registrant) => ({ id: registrant.id, hash: textHash(registrant.text), length: registrant.text.length }));
  const digestFile = bundleFile('registrants/base-digests', encodeRegistrantDigests(digests));
  manifest.registrantDigests = nameInBundle(digestFile);
  yield digestFile;
}

/** A pack of registrant texts, read back before it is written. */
function packOf(stem: string, registrants: readonly { id: number; text: string }[]): BundleFile {
  const file = bundleFile(stem, encodeRecordTexts(REGISTRANT_FIELD_KEYS, registrants));
  const back = decodeRecordTexts(file.data, file.path);
  registrants.forEach((registrant, i) => {
    if (back.ids[i] !== registrant.id || back.text(i) !== registrant.text) throw new Error(`${file.path}: registrant ${registrant.id} does not read back as it was written`);
  });
  return file;
}
