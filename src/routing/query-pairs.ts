/**
 * A query string read as the live service reads it (contract section 9): Python's
 * `urllib.parse.parse_qsl(query, keep_blank_values=True)`, which Django's QueryDict and Django REST
 * Framework's page links both use. Fields are split at `&` only; an empty field is skipped; a field
 * without `=` is a name with an empty value; in names and values `+` is a space, then `%XX` sequences
 * are bytes decoded as UTF-8, a malformed sequence becoming U+FFFD, and a `%` not followed by two hex
 * digits staying as it is.
 */
export function queryPairs(rawQuery: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const field of rawQuery.split('&')) {
    if (field === '') continue;
    const equals = field.indexOf('=');
    const name = equals < 0 ? field : field.slice(0, equals);
    const value = equals < 0 ? '' : field.slice(equals + 1);
    pairs.push([unquotePlus(name), unquotePlus(value)]);
  }
  return pairs;
}

/**
 * How many fields Django counts in a query string before it reads any (`1 + qs.count('&')`, empty
 * ones included): more than `DATA_UPLOAD_MAX_NUMBER_FIELDS` (1,000) and it refuses the request.
 */
export function queryFieldCount(rawQuery: string): number {
  let count = 1;
  for (let at = rawQuery.indexOf('&'); at >= 0; at = rawQuery.indexOf('&', at + 1)) count++;
  return count;
}

export const MAX_QUERY_FIELDS = 1000;

/** Each parameter's last value, as `QueryDict.get` reads it (contract sections 3 and 9). */
export function lastValues(pairs: readonly (readonly [string, string])[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of pairs) values.set(name, value);
  return values;
}

const decoder = new TextDecoder('utf-8');

/** Python's `unquote_plus(text, errors='replace')`. */
export function unquotePlus(text: string): string {
  const spaced = text.indexOf('+') < 0 ? text : text.replaceAll('+', ' ');
  return spaced.indexOf('%') < 0 ? spaced : unquote(spaced);
}

/**
 * Python's `unquote`: runs of ASCII characters become bytes (`%XX` as the byte it names), decoded
 * as UTF-8 with U+FFFD for what is not; other characters stay as they are.
 */
function unquote(text: string): string {
  let result = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) result += decoder.decode(Uint8Array.from(bytes));
    bytes = [];
  };
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0x80) {
      flush();
      result += text[at];
    } else if (unit === 0x25 /* % */ && at + 2 < text.length && isHex(text.charCodeAt(at + 1)) && isHex(text.charCodeAt(at + 2))) {
      bytes.push(parseInt(text.slice(at + 1, at + 3), 16));
      at += 2;
    } else {
      bytes.push(unit);
    }
  }
  flush();
  return result;
}

function isHex(unit: number): boolean {
  return (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x46) || (unit >= 0x61 && unit <= 0x66);
}
