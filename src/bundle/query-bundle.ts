import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkFile, MANIFEST_FILE, registrantPackFile, type BundleManifest } from './bundle-manifest.ts';
import { BundleFileError, checkContent } from './content-names.ts';
import { decodeIndexSegment, type IndexSegment } from './index-segment.ts';
import { decodeNameOrder, type NameOrder } from './name-order.ts';
import { decodeRecordTexts, type RecordTexts } from './record-texts.ts';
import { decodeRegistrantColumn, type RegistrantColumn, type RegistrantColumnTypes } from './registrant-columns.ts';
import { sortedIndexOf } from './sorted-arrays.ts';
import type { TextList } from './text-list.ts';
import { upperBound } from './sorted-arrays.ts';

/**
 * How the answerer reads a file of the query bundle: its name in the bundle folder (`manifest.json`,
 * `clients/...`), the bytes, or undefined when there is no such file. The world is passed in (the
 * bundle/ of a folder on disk, Workers' static assets, a CDN): the answerer runs in Node, workerd and
 * Deno alike.
 */
export type ReadFile = (file: string) => Promise<Uint8Array | undefined>;

/**
 * The client chunks kept decoded, counted by their files' bytes: every chunk of the registry today
 * (44 MB at 134,719 clients), within a Worker's 128 MB beside the index (10 MB) and the registrants'
 * packs and columns (about 10 MB, kept once read). A chunk let go is garbage for the collector, and then read again: on the bench's search
 * mix a cache of 2,048 chunks gave a p99 of 10.1-10.5 ms, one that lets none go 4.8-5.4 ms.
 */
const CHUNK_BYTES = 48 * 2 ** 20;

/** A read that has not answered by then never will: the answer is a 500 naming the file, not a request left hanging. */
const READ_MS = 10_000;

interface CachedChunk {
  texts: Promise<RecordTexts>;
  /** Its file's bytes, once read. */
  bytes: number;
}

/**
 * The query bundle of one build, read through `read` as the answers need its files: each file once,
 * decoded and kept, except the client chunks, of which the most recently used are kept.
 */
export class QueryBundle {
  private readonly loaded = new Map<string, Promise<unknown>>();
  private readonly chunkCache = new Map<number, CachedChunk>();
  private chunkBytes = 0;
  /** The place of each registrant pack's first registrant, counted from the manifest when first needed. */
  private packStarts: number[] | undefined;
  /** Every file read so far, for the count of reads an answer costs. */
  reads = 0;

  private constructor(
    private readonly read: ReadFile,
    readonly manifest: BundleManifest,
    /** The manifest's bytes as read: a manifest read again that differs is a newer build's. */
    readonly manifestText: string,
    private readonly chunkBudget: number,
    private readonly readMs: number,
  ) {}

  /** The bundle of the build that `read` reads; undefined when it has none. */
  static async open(read: ReadFile, options: { chunkBytes?: number; readMs?: number } = {}): Promise<QueryBundle | undefined> {
    const readMs = options.readMs ?? READ_MS;
    const bytes = await within(read(MANIFEST_FILE), BUNDLE_MANIFEST, readMs);
    if (bytes === undefined) return undefined;
    const text = new TextDecoder().decode(bytes);
    let manifest: BundleManifest;
    try {
      manifest = JSON.parse(text) as BundleManifest;
    } catch (error) {
      throw new BundleFileError(BUNDLE_MANIFEST, 'damaged', `not JSON (${(error as Error).message}): the file is damaged`);
    }
    if (manifest.format !== BUNDLE_FORMAT) throw new Error(`${BUNDLE_MANIFEST}: format ${String(manifest.format)}, this program reads ${BUNDLE_FORMAT}: build again`);
    const bundle = new QueryBundle(read, manifest, text, options.chunkBytes ?? CHUNK_BYTES, readMs);
    bundle.reads = 1;
    return bundle;
  }

  /** Every index segment, in id order. */
  segments(): Promise<IndexSegment[]> {
    return this.once('segments', () => Promise.all(this.manifest.segments.map((segment) => this.file(segment.file, decodeIndexSegment))));
  }

  nameOrder(): Promise<NameOrder> {
    return this.once('nameOrder', () => this.file(this.manifest.nameOrder, decodeNameOrder));
  }

  /** One column of the registrants (registrant-columns.ts), read when first asked for. */
  registrantColumn<K extends RegistrantColumn>(column: K): Promise<RegistrantColumnTypes[K]> {
    return this.once(`registrants:${column}`, () => this.file(this.manifest.registrantColumns[column], (bytes, file) => decodeRegistrantColumn(column, bytes, file)));
  }

  /** The registrants' ids and names, for `registrant_name` on the clients. */
  async registrantIndex(): Promise<{ ids: Float64Array; names: TextList }> {
    const [ids, names] = await Promise.all([this.registrantColumn('ids'), this.registrantColumn('names')]);
    return { ids, names };
  }

  /** The chunk that holds the client of a global index, and the client's place in it. */
  async clientAt(index: number): Promise<{ chunk: RecordTexts; at: number }> {
    const { starts } = this.manifest.chunks;
    const k = upperBound(starts, index) - 1;
    return { chunk: await this.chunk(k), at: index - starts[k]! };
  }

  /** The global index of the client with `id`, or -1. */
  async findClient(id: number): Promise<number> {
    const { firstIds, starts } = this.manifest.chunks;
    const k = upperBound(firstIds, id) - 1;
    if (k < 0) return -1;
    const at = (await this.chunk(k)).find(id);
    return at < 0 ? -1 : starts[k]! + at;
  }

  /** The fields of the registrant with `id`, or undefined, for its record: only a registrant listed has one. */
  async servedRegistrantFields(id: number): Promise<string | undefined> {
    if (sortedIndexOf(await this.registrantColumn('ids'), id) < 0) return undefined;
    return this.registrantFields(id);
  }

  /**
   * The fields of the registrant with `id` as its pack holds them, or undefined: for a client that
   * embeds it, reading its pack alone (a few kilobytes).
   */
  async registrantFields(id: number): Promise<string | undefined> {
    const packs = this.manifest.registrantPacks;
    const k = upperBound(packs.firstIds, id) - 1;
    if (k < 0) return undefined;
    const file = registrantPackFile(packs, k);
    const pack = await this.once(file, () => this.file(file, decodeRecordTexts));
    const at = pack.find(id);
    return at < 0 ? undefined : pack.text(at);
  }

  /**
   * The registrant at a place in id order (the registrants list's numbering): its id and fields,
   * from its pack alone, found by the packs' counts (the ids column is not read).
   */
  async registrantAt(place: number): Promise<{ id: number; fields: string }> {
    const packs = this.manifest.registrantPacks;
    this.packStarts ??= packStartsOf(packs.counts);
    const k = upperBound(this.packStarts, place) - 1;
    if (k < 0 || k >= packs.counts.length || place >= this.packStarts[k]! + packs.counts[k]!) throw new Error(`the query bundle has no registrant at place ${place}`);
    const file = registrantPackFile(packs, k);
    const pack = await this.once(file, () => this.file(file, decodeRecordTexts));
    const at = place - this.packStarts[k]!;
    return { id: pack.ids[at]!, fields: pack.text(at) };
  }

  private chunk(k: number): Promise<RecordTexts> {
    let chunk = this.chunkCache.get(k);
    if (chunk !== undefined) {
      // Most recently used last: a Map keeps insertion order.
      this.chunkCache.delete(k);
      this.chunkCache.set(k, chunk);
      return chunk.texts;
    }
    const entry = { bytes: 0 } as CachedChunk;
    entry.texts = this.file(chunkFile(this.manifest.chunks, k), (bytes, file) => {
      const texts = decodeRecordTexts(bytes, file);
      // Counted only if still kept: a chunk let go while it was read is not.
      if (this.chunkCache.get(k) === entry) {
        entry.bytes = bytes.length;
        this.chunkBytes += bytes.length;
        this.letChunksGo();
      }
      return texts;
    });
    entry.texts.catch(() => {
      if (this.chunkCache.get(k) === entry) this.chunkCache.delete(k);
    });
    this.chunkCache.set(k, entry);
    return entry.texts;
  }

  /** The least recently used chunks let go until those kept are within the budget (the newest always kept). */
  private letChunksGo(): void {
    for (const [k, entry] of this.chunkCache) {
      if (this.chunkBytes <= this.chunkBudget || this.chunkCache.size <= 1) return;
      this.chunkCache.delete(k);
      this.chunkBytes -= entry.bytes;
    }
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let value = this.loaded.get(key) as Promise<T> | undefined;
    if (value === undefined) {
      value = load();
      this.loaded.set(key, value);
      // A failed read is tried again by the next answer, not remembered.
      value.catch(() => this.loaded.delete(key));
    }
    return value;
  }

  /**
   * A file the manifest names, checked against the hash in its name before it is decoded: a damaged
   * file is an error naming it (a 500), never an answer; so is one that is gone (a newer deploy
   * removed it: the answerer reads the manifest again) or that does not arrive in time.
   */
  private async file<T>(name: string, decode: (bytes: Uint8Array, file: string) => T): Promise<T> {
    const path = `${BUNDLE_FOLDER}${name}`;
    this.reads++;
    const bytes = await within(this.read(name), path, this.readMs);
    if (bytes === undefined) throw new BundleFileError(path, 'missing', 'the query bundle names this file, but the build has none');
    await checkContent(path, bytes);
    return decode(bytes, path);
  }
}

function packStartsOf(counts: readonly number[]): number[] {
  const starts: number[] = [];
  let place = 0;
  for (const count of counts) {
    starts.push(place);
    place += count;
  }
  return starts;
}

/** The read, or a BundleFileError naming the file once it has taken `ms`. */
function within<T>(reading: Promise<T>, file: string, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BundleFileError(file, 'late', `not read within ${ms / 1000} s`)), ms);
  });
  return Promise.race([reading, late]).finally(() => clearTimeout(timer));
}
