import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, chunkFile, MANIFEST_FILE, registrantPackFile, type BundleManifest } from './bundle-manifest.ts';
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
  /** Every file read so far, for the count of reads an answer costs. */
  reads = 0;

  private constructor(
    private readonly read: ReadFile,
    readonly manifest: BundleManifest,
    private readonly chunkBudget: number,
  ) {}

  /** The bundle of the build that `read` reads; undefined when it has none. */
  static async open(read: ReadFile, options: { chunkBytes?: number } = {}): Promise<QueryBundle | undefined> {
    const bytes = await read(MANIFEST_FILE);
    if (bytes === undefined) return undefined;
    const manifest = JSON.parse(new TextDecoder().decode(bytes)) as BundleManifest;
    if (manifest.format !== BUNDLE_FORMAT) throw new Error(`${BUNDLE_MANIFEST}: format ${String(manifest.format)}, this program reads ${BUNDLE_FORMAT}: build again`);
    const bundle = new QueryBundle(read, manifest, options.chunkBytes ?? CHUNK_BYTES);
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
    const { firstIds } = this.manifest.registrantPacks;
    const k = upperBound(firstIds, id) - 1;
    if (k < 0) return undefined;
    const file = registrantPackFile(firstIds[k]!);
    const pack = await this.once(file, () => this.file(file, decodeRecordTexts));
    const at = pack.find(id);
    return at < 0 ? undefined : pack.text(at);
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
    entry.texts = this.file(chunkFile(this.manifest.chunks.firstIds[k]!), (bytes, file) => {
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

  private async file<T>(name: string, decode: (bytes: Uint8Array, file: string) => T): Promise<T> {
    const path = `${BUNDLE_FOLDER}${name}`;
    this.reads++;
    const bytes = await this.read(name);
    if (bytes === undefined) throw new Error(`${path}: the query bundle names this file, but the build has none`);
    return decode(bytes, path);
  }
}
