import type { Page } from './page-rules.ts';
import { BACKSLASH, QUOTE, digitsEnd, digitsValue, isJsonWholeNumber } from './text-scan.ts';

/**
 * A page's head, `{"count":N,"next":L,"previous":L,"results":[`, read without `JSON.parse` when it has
 * exactly that form: the keys in the contract's order, `count` a whole number, each link `null` or a
 * string with no escape and no control character (so its text is its value). Any other head, valid
 * JSON or not, gives undefined, and the caller parses it: this only makes the common case cheap (a
 * build has a head per page and format, over a million at 134,719 records).
 */
export function readHead(head: string): Omit<Page, 'results'> | undefined {
  if (!head.startsWith('{"count":')) return undefined;
  const at = digitsEnd(head, 9, head.length);
  if (!isJsonWholeNumber(head, 9, at)) return undefined;
  const count = digitsValue(head, 9, at);
  if (!head.startsWith(',"next":', at)) return undefined;
  const next = readLink(head, at + 8);
  if (next === undefined || !head.startsWith(',"previous":', next.end)) return undefined;
  const previous = readLink(head, next.end + 12);
  if (previous === undefined || !head.startsWith(',"results":[', previous.end) || previous.end + 12 !== head.length) return undefined;
  return { count, next: next.value, previous: previous.value };
}

/** `null` or a plain JSON string at `from`: its value and where it ends. */
function readLink(head: string, from: number): { value: string | null; end: number } | undefined {
  if (head.startsWith('null', from)) return { value: null, end: from + 4 };
  if (head.charCodeAt(from) !== QUOTE) return undefined;
  for (let at = from + 1; at < head.length; at++) {
    const code = head.charCodeAt(at);
    if (code === QUOTE) return { value: head.slice(from + 1, at), end: at + 1 };
    if (code === BACKSLASH || code < 0x20) return undefined;
  }
  return undefined;
}
