/**
 * The registrant overlay's file (bundle-manifest.ts, `overlay`): for each registrant whose text some
 * client chunk holds as an earlier build wrote it, the values that differ, as they are now: by key,
 * each value as JSON text (`{"905":{"name":"\"NEW NAME\"","dt_updated":"\"2030-...\""}}`). A client's
 * body takes its chunk's text of the registrant with these values in place (record-texts.ts): a
 * renamed registrant costs the overlay its new name and date, about 100 bytes, not its whole text.
 * JSON, read by the engine's own parser; registrants in ascending id.
 */
export type OverlayFields = Readonly<Record<string, Readonly<Record<string, string>>>>;

export function encodeOverlay(entries: ReadonlyMap<number, Readonly<Record<string, string>>>): Uint8Array {
  const ids = [...entries.keys()].sort((a, b) => a - b);
  return new TextEncoder().encode(`{${ids.map((id) => overlayEntry(id, entries.get(id)!)).join(',')}}`);
}

/** One registrant's entry in the file, between the commas. */
export function overlayEntry(id: number, values: Readonly<Record<string, string>>): string {
  return `${JSON.stringify(String(id))}:${JSON.stringify(values)}`;
}

/**
 * The overlay from its bytes: the engine's JSON.parse (0.5 ms for 40 KiB in an isolate without its
 * compiler, a fresh instance's case), and no loop over its registrants: `overlayValues` checks the one
 * an answer takes.
 */
export function decodeOverlay(bytes: Uint8Array, file: string): OverlayFields {
  let fields: unknown;
  try {
    fields = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new Error(`${file}: the registrant overlay is not JSON (${(error as Error).message})`);
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new Error(`${file}: the registrant overlay is not an object of registrants`);
  return fields as OverlayFields;
}

/** A registrant's values in the overlay, by key; an error naming the file when it has none or they are not JSON texts. */
export function overlayValues(fields: OverlayFields, id: number, file: string): Readonly<Record<string, string>> {
  const values: unknown = fields[id];
  if (typeof values !== 'object' || values === null || !Object.values(values).every((value) => typeof value === 'string')) {
    throw new Error(`${file}: the registrant overlay names registrant ${id} but holds no values of it`);
  }
  return values as Readonly<Record<string, string>>;
}
