/**
 * The container of every binary file of the query bundle: a JSON header, then named sections of
 * bytes, each a typed array's memory, so that a reader takes views of them without parsing or copying
 * (as PMTiles and Pagefind do with their index files):
 *
 *   u32 (little-endian) length of the header | header JSON, padded with spaces to 8 bytes | sections
 *
 * The header holds the file's own fields and `sections`: each section's name, element type, byte
 * offset (from the file's start, a multiple of 8) and element count. Numbers are little-endian, the
 * order of every platform the answerer runs on (checked when a file is read).
 */
export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

const TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array } as const;
type TypeName = keyof typeof TYPES;

interface SectionEntry {
  type: TypeName;
  offset: number;
  count: number;
}

interface Header {
  sections: Record<string, SectionEntry>;
  [field: string]: unknown;
}

const encoder = new TextEncoder();
// One decoder for every file's header: a first answer reads up to 30 files, and making a decoder is a platform object's construction each time.
const decoder = new TextDecoder();

/** A file of `fields` (JSON values) and `sections`. */
export function encodeSections(fields: Record<string, unknown>, sections: Record<string, SectionArray>): Uint8Array {
  const names = Object.keys(sections);
  const entries: Record<string, SectionEntry> = {};
  // The header's length depends on the offsets it holds: lay the sections out after a first guess, grow until it fits.
  let headerRoom = 64;
  let header: Uint8Array;
  for (;;) {
    let offset = align(4 + headerRoom);
    for (const name of names) {
      const array = sections[name]!;
      entries[name] = { type: typeName(array), offset, count: array.length };
      offset = align(offset + array.byteLength);
    }
    header = encoder.encode(JSON.stringify({ ...fields, sections: entries }));
    if (header.length <= headerRoom) break;
    headerRoom = header.length + 64;
  }
  const last = names.length === 0 ? undefined : entries[names.at(-1)!]!;
  const size = last === undefined ? align(4 + headerRoom) : last.offset + sections[names.at(-1)!]!.byteLength;
  const file = new Uint8Array(size);
  new DataView(file.buffer).setUint32(0, headerRoom, true);
  file.fill(0x20, 4, 4 + headerRoom);
  file.set(header, 4);
  for (const name of names) {
    const array = sections[name]!;
    file.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), entries[name]!.offset);
  }
  return file;
}

/** A file's fields and its sections, as views of its memory (copied once if that memory is not aligned). */
export interface SectionsFile {
  fields: Record<string, unknown>;
  has(name: string): boolean;
  /** The element type of a section (`u8`, `u16`, `u32`, `i32`, `f64`), for sections written in one type or another. */
  type(name: string): string | undefined;
  section<T extends SectionArray>(name: string, type: new (buffer: ArrayBuffer, offset: number, length: number) => T): T;
}

export function decodeSections(bytes: Uint8Array, file: string): SectionsFile {
  if (!LITTLE_ENDIAN) throw new Error('the query bundle is little-endian, and this platform is not');
  // A view needs its offset to be a multiple of its element size: Node's small file buffers share a pool at any offset.
  const data = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  if (data.length < 4) throw new Error(`${file}: not a file of the query bundle (${data.length} bytes)`);
  const headerLength = new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true);
  let header: Header;
  try {
    if (4 + headerLength > data.length) throw new Error(`a header of ${headerLength} bytes in ${data.length}`);
    header = JSON.parse(decoder.decode(data.subarray(4, 4 + headerLength))) as Header;
  } catch (error) {
    throw new Error(`${file}: not a file of the query bundle (${(error as Error).message})`);
  }
  const { sections, ...fields } = header;
  return {
    fields,
    has: (name) => Object.hasOwn(sections, name),
    type: (name) => (Object.hasOwn(sections, name) ? sections[name]!.type : undefined),
    section(name, type) {
      const entry = sections[name];
      if (entry === undefined) throw new Error(`${file}: no section ${name}`);
      if (TYPES[entry.type] !== (type as unknown)) throw new Error(`${file}: section ${name} holds ${entry.type}`);
      const end = entry.offset + entry.count * TYPES[entry.type].BYTES_PER_ELEMENT;
      if (end > data.length) throw new Error(`${file}: section ${name} runs past the end of the file`);
      return new type(data.buffer as ArrayBuffer, data.byteOffset + entry.offset, entry.count);
    },
  };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

function typeName(array: SectionArray): TypeName {
  for (const [name, type] of Object.entries(TYPES)) if (array instanceof type) return name as TypeName;
  throw new Error('not a section array');
}
