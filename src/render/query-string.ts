/**
 * The query string of a page link as Django REST Framework writes it (`replace_query_param` and
 * `remove_query_param`): the request's parameters grouped by name in the order first met, `page` set
 * to the page linked (or removed for page 1), names sorted by code point, then
 * `urlencode(..., doseq=True)`: every name and value percent-encoded as `quote_plus` does (a space is
 * `+`; only letters, digits and `_.-~` stay as they are; UTF-8 bytes in upper-case hex).
 *
 * The build's own pages link with the same function, given their canonical parameters (the filter,
 * `format`, `ordering`): for those the two ways of answering write the same bytes.
 */
export function pageQuery(pairs: readonly (readonly [string, string])[], pageParam: string, page: number): string {
  const groups = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const values = groups.get(name);
    if (values === undefined) groups.set(name, [value]);
    else values.push(value);
  }
  if (page === 1) groups.delete(pageParam);
  else groups.set(pageParam, [String(page)]);
  const names = [...groups.keys()].sort(compareCodePoints);
  const fields: string[] = [];
  for (const name of names) {
    const key = quotePlus(name);
    for (const value of groups.get(name)!) fields.push(`${key}=${quotePlus(value)}`);
  }
  return fields.join('&');
}

/** Python's `quote_plus(text, safe='')`. */
export function quotePlus(text: string): string {
  if (SAFE.test(text)) return text;
  return encodeURIComponent(wellFormed(text)).replace(MORE_TO_QUOTE, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).replaceAll('%20', '+');
}

/** Characters `quote_plus` leaves as they are. */
const SAFE = /^[A-Za-z0-9_.~-]*$/;
/** What `encodeURIComponent` leaves but `quote_plus` encodes. */
const MORE_TO_QUOTE = /[!'()*]/g;

/** A lone surrogate has no UTF-8 bytes: it is read as U+FFFD, as a decoder reading its bytes would. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Python's string order: by code point, where JavaScript's `<` compares UTF-16 code units. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let at = 0; at < length; at++) {
    const x = a.charCodeAt(at);
    const y = b.charCodeAt(at);
    if (x === y) continue;
    // Surrogates (U+D800 to U+DFFF) stand for code points above U+FFFF: above every other unit.
    const xHigh = x >= 0xd800 && x <= 0xdfff;
    const yHigh = y >= 0xd800 && y <= 0xdfff;
    if (xHigh !== yHigh) return xHigh ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
