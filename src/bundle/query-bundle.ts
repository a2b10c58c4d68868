import { decodeRecordDirectory, type DirectoryKind, type RecordDirectory } from './record-directory.ts';
import { BUNDLE_FOLDER, BUNDLE_FORMAT, BUNDLE_MANIFEST, decodeManifest, keyFragmentFile, MANIFEST_FILE, orderFragmentFile, registrantKeyFile, type BundleManifest } from './bundle-manifest.ts';
import { BundleFileError, checkContent } from './content-names.ts';
import { ReadDeadline } from './read-deadline.ts';
import { WeighedCache } from './weighed-cache.ts';
import { decodeOverlay, overlayValues } from './overlay-file.ts';
import { decodeKeyFragment, fragmentIndexFor, type KeyFragment } from './key-index.ts';
import { decodeOrderFragment, type OrderField, type OrderFragment } from './order-fragments.ts';
import { decodeRecordTexts, type RecordTexts } from './record-texts.ts';
import { decodeRegistrantColumn, type RegistrantColumn, type RegistrantColumnTypes } from './registrant-columns.ts';
import { sortedIndexOf } from './sorted-arrays.ts';
import { upperBound } from './sorted-arrays.ts';

/**
 * How the answerer reads a file of the query bundle: its name in the bundle folder (`manifest.json`,
 * `clients/...`), the bytes, or undefined when there is no such file. The world is passed in (the
 * bundle/ of a folder on disk, Workers' static assets, a CDN): the answerer runs in Node, workerd and
 * Deno alike.
 */
export type ReadFile = (file: string) => Promise<Uint8Array | undefined>;

/**
 * What one bundle keeps decoded, by its files' bytes (weighed-cache.ts), in two budgets: what searches and
 * orders read (key and order fragments, registrant columns and keys: 15 MB at 134,719 clients, all of it kept,
 * so that a search asked again reads nothing), and the records pages read (client chunks, registrant
 * packs: 90 MB there, the most recently used kept), so that a stream of pages never pushes out the
 * index. 20 + 12 MiB, 32 in all, beside the result cache's 8 MiB and the program itself, keeps an
 * isolate under the 64 MiB issue 39 asks, a quarter of a Worker's 128 MB.
 */
const BUDGETS: KeptBytes = { index: 20 * 2 ** 20, records: 12 * 2 ** 20 };

/** What a bundle may keep, in bytes of files: the index (keys, orders, columns) and the records (chunks, packs). */
export interface KeptBytes {
  index: number;
  records: number;
}

export interface OpenOptions {
  /** What the files kept may weigh: the Worker's 20 + 12 MiB by default. */
  budgets?: KeptBytes;
  readMs?: number;
  /**
   * Whether each file read is checked against its name (true by default): a reader whose every file
   * was checked before it was handed on (the preview checks the whole bundle when it opens a build)
   * need not pay for it again on every read.
   */
  checkReads?: boolean;
}

type Kept = 'index' | 'records';

/** A read that has not answered by then never will: the answer is a 500 naming the file, not a request left hanging. */
const READ_MS = 10_000;

/** What the views of one bundle share: the files kept, the count of reads, and what is worked out once from the manifest. */
interface Shared {
  cache: Record<Kept, WeighedCache>;
  checkReads: boolean;
  reads: number;
}

/**
 * The query bundle of one build, read through `read` as the answers need its files: each file read
 * whole when first needed, checked against its name, decoded, and kept in the bundle's cache.
 *
 * An answer works on its own view (`forAnswer`): views share what is kept, never a read in flight, so
 * that no request waits on a read another request started (workerd cancels what a finished request
 * left running; one answer's reads of one file are still made once).
 */
export class QueryBundle {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** One deadline for this view's reads in flight together. */
  private readonly deadline: ReadDeadline;

  private constructor(
    private readonly read: ReadFile,
    readonly manifest: BundleManifest,
    /** The manifest's bytes as read: a manifest read again that differs is a newer build's. */
    readonly manifestText: string,
    private readonly shared: Shared,
    private readonly readMs: number,
  ) {
    this.deadline = new ReadDeadline(readMs);
  }

  /** The bundle of the build that `read` reads; undefined when it has none. */
  static async open(read: ReadFile, options: OpenOptions = {}): Promise<QueryBundle | undefined> {
    const readMs = options.readMs ?? READ_MS;
    const bytes = await new ReadDeadline(readMs).within(read(MANIFEST_FILE), BUNDLE_MANIFEST);
    if (bytes === undefined) return undefined;
    const text = new TextDecoder().decode(bytes);
    let manifest: BundleManifest;
    try {
      manifest = decodeManifest(text);
    } catch (error) {
      throw new BundleFileError(BUNDLE_MANIFEST, 'damaged', `${(error as Error).message}: the file is damaged`);
    }
    if (manifest.format !== BUNDLE_FORMAT) throw new Error(`${BUNDLE_MANIFEST}: format ${String(manifest.format)}, this program reads ${BUNDLE_FORMAT}: build again`);
    const { index, records } = options.budgets ?? BUDGETS;
    const cache = { index: new WeighedCache(index), records: new WeighedCache(records) };
    return new QueryBundle(read, manifest, text, { cache, checkReads: options.checkReads ?? true, reads: 1 }, readMs);
  }

  /** A view for one answer: the same files kept, its own reads in flight. */
  forAnswer(): QueryBundle {
    return new QueryBundle(this.read, this.manifest, this.manifestText, this.shared, this.readMs);
  }

  /** Every file read so far, by every view, the manifest included: for the count of reads an answer costs. */
  get reads(): number {
    return this.shared.reads;
  }

  /** The bytes of the decoded files kept now. */
  get keptBytes(): number {
    return this.shared.cache.index.bytes + this.shared.cache.records.bytes;
  }

  /** The fragment of segment `s`'s key index that can hold `key` (bundle/key-index.ts), or undefined when none can. */
  keyFragment(s: number, key: string): Promise<KeyFragment | undefined> {
    const segment = this.manifest.segments[s]!;
    const k = fragmentIndexFor(segment.keys.firstKeys, key);
    return k < 0 ? Promise.resolve(undefined) : this.file(keyFragmentFile(segment, k), decodeKeyFragment);
  }

  /** Fragment k of an order (bundle/order-fragments.ts). */
  orderFragment(field: OrderField, k: number): Promise<OrderFragment> {
    return this.file(orderFragmentFile(this.manifest.orders, field, k), decodeOrderFragment);
  }

  /**
   * Each client's place in a field's order (client number -> place), worked out from the order's
   * fragments when every one of them is kept now, and kept with them (four bytes a client); undefined
   * while one is not: it never reads, so a fresh instance's first answer reads no more than its page's
   * fragments.
   */
  heldOrderPlaces(field: OrderField): Int32Array | undefined {
    const { index } = this.shared.cache;
    const key = `${field} places`;
    const kept = index.get<Int32Array>(key);
    if (kept !== undefined) return kept;
    const fragments: OrderFragment[] = [];
    for (let k = 0; k < this.manifest.orders[field].length; k++) {
      const fragment = index.get<OrderFragment>(orderFragmentFile(this.manifest.orders, field, k));
      if (fragment === undefined) return undefined;
      fragments.push(fragment);
    }
    const places = new Int32Array(this.manifest.clients);
    for (const { first, clients } of fragments) {
      for (let j = 0; j < clients.length; j++) places[clients[j]!] = first + j;
    }
    index.set(key, places, places.byteLength);
    return places;
  }

  /** One column of the registrants (registrant-columns.ts), read when first asked for. */
  registrantColumn<K extends RegistrantColumn>(column: K): Promise<RegistrantColumnTypes[K]> {
    return this.file(this.manifest.registrantColumns[column], (bytes, file) => decodeRegistrantColumn(column, bytes, file));
  }

  /** The fragment of the registrants' key index (registrant-keys.ts) that can hold `key`, or undefined when none can. */
  registrantKeyFragment(key: string): Promise<KeyFragment | undefined> {
    const keys = this.manifest.registrantKeys;
    const k = fragmentIndexFor(keys.firstKeys, key);
    return k < 0 ? Promise.resolve(undefined) : this.file(registrantKeyFile(keys, k), decodeKeyFragment);
  }

  /** The chunk that holds the client of a global index, and the client's place in it. */
  async clientAt(index: number): Promise<{ chunk: RecordTexts; at: number }> {
    const directory = await this.chunkDirectory();
    const k = upperBound(directory.starts, index) - 1;
    return { chunk: await this.chunk(directory, k), at: index - directory.starts[k]! };
  }

  /** The global index of the client with `id`, or -1. */
  async findClient(id: number): Promise<number> {
    const directory = await this.chunkDirectory();
    const k = upperBound(directory.firstIds, id) - 1;
    if (k < 0) return -1;
    const at = (await this.chunk(directory, k)).find(id);
    return at < 0 ? -1 : directory.starts[k]! + at;
  }

  /** Where each client chunk starts and what its file is (record-directory.ts): read once, kept with the index. */
  chunkDirectory(): Promise<RecordDirectory> {
    return this.directory('chunks', this.manifest.chunks);
  }

  /** Where each registrant pack starts and what its file is (record-directory.ts): read once, kept with the index. */
  packDirectory(): Promise<RecordDirectory> {
    return this.directory('packs', this.manifest.registrantPacks);
  }

  /** The fields of the registrant with `id`, or undefined, for its record: only a registrant listed has one. */
  async servedRegistrantFields(id: number): Promise<string | undefined> {
    const [ids] = await Promise.all([this.registrantColumn('ids'), this.packDirectory()]);
    if (sortedIndexOf(ids, id) < 0) return undefined;
    return this.registrantFields(id);
  }

  /**
   * The fields of the registrant with `id` as its pack holds them, or undefined: for the registrants
   * list and a registrant's record, reading its pack alone (a few kilobytes) once the packs' directory is read.
   */
  async registrantFields(id: number): Promise<string | undefined> {
    const directory = await this.packDirectory();
    const k = upperBound(directory.firstIds, id) - 1;
    if (k < 0) return undefined;
    return (await this.packEntry(directory, k, (pack) => pack.find(id)))?.fields;
  }

  /**
   * The registrant at a place in id order (the registrants list's numbering): its id and fields,
   * from its pack alone, found by the packs' starts (the ids column is not read).
   */
  async registrantAt(place: number): Promise<{ id: number; fields: string }> {
    const directory = await this.packDirectory();
    const k = upperBound(directory.starts, place) - 1;
    const end = k + 1 < directory.count ? directory.starts[k + 1]! : this.manifest.registrants;
    if (k < 0 || place >= end) throw new Error(`the query bundle has no registrant at place ${place}`);
    return (await this.packEntry(directory, k, () => place - directory.starts[k]!))!;
  }

  /** The registrant of pack k at the place `at` finds in it (-1: none), read from that pack alone. */
  private async packEntry(directory: RecordDirectory, k: number, at: (pack: RecordTexts) => number): Promise<{ id: number; fields: string } | undefined> {
    const pack = await this.file(directory.file(k), decodeRecordTexts, 'records');
    const found = at(pack);
    return found < 0 ? undefined : { id: pack.ids[found]!, fields: pack.text(found) };
  }

  /** A directory the manifest names, with as many files as it says. */
  private directory(kind: DirectoryKind, { file, count }: { file: string; count: number }): Promise<RecordDirectory> {
    return this.file(file, (bytes, path) => {
      const directory = decodeRecordDirectory(kind, bytes, path);
      if (directory.count !== count) throw new Error(`${path}: ${directory.count} files where the manifest says ${count}`);
      return directory;
    });
  }

  /**
   * The text of the registrant a client of `chunk` embeds, as it is now: the chunk's own, with the
   * values of the overlay (bundle-manifest.ts, overlay-file.ts) in place when the registrant is in it,
   * whose file is then read (once, and kept with the index). An answer whose clients' registrants are
   * not in it reads nothing more.
   */
  embeddedRegistrant(chunk: RecordTexts, registrantId: number): string | Promise<string> {
    const at = chunk.embedded?.find(registrantId) ?? -1;
    if (at < 0) throw new Error(`the query bundle has no registrant ${registrantId} beside the clients of chunk ${chunk.ids[0]}`);
    const { overlay } = this.manifest;
    if (overlay === undefined || sortedIndexOf(overlay.ids, registrantId) < 0) return chunk.embedded!.text(at);
    return this.file(overlay.file, decodeOverlay).then((fields) => chunk.embedded!.text(at, overlayValues(fields, registrantId, `${BUNDLE_FOLDER}${overlay.file}`)));
  }

  private chunk(directory: RecordDirectory, k: number): Promise<RecordTexts> {
    return this.file(directory.file(k), decodeRecordTexts, 'records');
  }

  /**
   * A file the manifest names, decoded: from the cache, or read (once for this view however many ask),
   * checked against the hash in its name before it is decoded, and kept. A damaged file is an error
   * naming it (a 500), never an answer; so is one that is gone (a newer deploy removed it: the answerer
   * reads the manifest again) or that does not arrive in time.
   */
  private file<T>(name: string, decode: (bytes: Uint8Array, file: string) => T, kept: Kept = 'index'): Promise<T> {
    const cache = this.shared.cache[kept];
    const found = cache.get<T>(name);
    if (found !== undefined) return Promise.resolve(found);
    let reading = this.inFlight.get(name) as Promise<T> | undefined;
    if (reading === undefined) {
      reading = this.readFile(name, decode, cache).finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, reading);
    }
    return reading;
  }

  private async readFile<T>(name: string, decode: (bytes: Uint8Array, file: string) => T, cache: WeighedCache): Promise<T> {
    const path = `${BUNDLE_FOLDER}${name}`;
    this.shared.reads++;
    const bytes = await this.deadline.within(this.read(name), path);
    if (bytes === undefined) throw new BundleFileError(path, 'missing', 'the query bundle names this file, but the build has none');
    if (this.shared.checkReads) await checkContent(path, bytes);
    const value = decode(bytes, path);
    cache.set(name, value, bytes.length);
    return value;
  }
}

