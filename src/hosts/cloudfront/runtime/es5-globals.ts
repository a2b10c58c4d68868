/**
 * What the router (src/routing/resolve-request.ts) uses from JavaScript beyond what CloudFront
 * Functions' runtime (cloudfront-js-2.0) documents: no `Map`, no `URLSearchParams`, no
 * `Object.hasOwn`. hosts/program-bundler.ts puts these in their place when it bundles the
 * router into the CloudFront Function (esbuild `define` renames the router's uses, `inject` adds
 * these), so the function runs the router's own code. They have names of their own so that the
 * function, whose declarations are global, does not replace the runtime's built-ins. Each does
 * exactly what the router needs of the original, no more: the tests run the function in a context
 * where the originals are gone.
 */

/**
 * `new URLSearchParams(query)` as the router iterates it: the name-value pairs, decoded the way the
 * URL standard's application/x-www-form-urlencoded parser decodes them (a leading `?` dropped, empty
 * pieces skipped, `+` a space, `%XX` bytes read as UTF-8 with U+FFFD for what is not UTF-8). Called
 * with `new`, it returns the array, which the router's `for...of` (lowered to an index loop) walks.
 */
export function QueryPairs(query: string): [string, string][] {
  const pairs: [string, string][] = [];
  const pieces = (query.charAt(0) === '?' ? query.slice(1) : query).split('&');
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    pairs.push(equals < 0 ? [formDecode(piece), ''] : [formDecode(piece.slice(0, equals)), formDecode(piece.slice(equals + 1))]);
  }
  return pairs;
}

function formDecode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  if (spaced.indexOf('%') < 0) return spaced;
  try {
    // Where it succeeds it decodes exactly as the standard does.
    return decodeURIComponent(spaced);
  } catch {
    return percentDecodeBytes(spaced);
  }
}

/** The standard's percent-decode on the UTF-8 bytes of the text, then a lenient UTF-8 decode. */
function percentDecodeBytes(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]!) && isHex(bytes[i + 2]!)) {
      out.push(parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16));
      i += 2;
    } else {
      out.push(byte);
    }
  }
  // "UTF-8 decode without BOM": a leading U+FEFF is kept, as decodeURIComponent keeps it.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(out));
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

/** `new Map()` as the router uses it: `set` and `get` of string keys. */
export function QueryValues(): { get(key: string): string | undefined; set(key: string, value: string): unknown } {
  // Keys are prefixed so that no query parameter name (`__proto__`, `hasOwnProperty`) can collide.
  const values: Record<string, string> = {};
  return {
    get: (key) => (hasOwn(values, `$${key}`) ? values[`$${key}`] : undefined),
    set(key, value) {
      values[`$${key}`] = value;
      return this;
    },
  };
}

/** `Object.hasOwn`, from ES5's `hasOwnProperty`. */
export function hasOwn(object: object, key: PropertyKey): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
