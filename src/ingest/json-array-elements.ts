/**
 * Splits a top-level JSON array into the source text of its elements while reading, so that a JSON
 * array file of any size is read with flat memory and every element keeps the line it starts on.
 * Each element is then parsed on its own by JSON.parse, which does the real validation; this scanner
 * only tracks nesting and strings to find the commas at depth 1.
 */
export interface ElementText {
  text: string;
  line: number;
  index: number;
}

export class ArrayFramingError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const NEWLINE = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_SQUARE = 91;
const CLOSE_SQUARE = 93;
const OPEN_CURLY = 123;
const CLOSE_CURLY = 125;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<ElementText> {
  let line = 1;
  let depth = 0; // 0 before the array opens, 1 inside it, more inside an element
  let closed = false;
  let inString = false;
  let escaped = false;
  let pending = ''; // text of the current element from earlier chunks
  let start = -1; // where the current element starts in this chunk, or -1
  let elementLine = 0;
  let index = 0;

  for await (const chunk of chunks) {
    const elements: ElementText[] = [];
    if (pending !== '') start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code === NEWLINE) line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) inString = false;
        continue;
      }
      if (isSpace(code)) continue;
      if (closed) throw new ArrayFramingError('unexpected text after the end of the top-level array', line);
      if (depth === 0) {
        if (code !== OPEN_SQUARE) throw new ArrayFramingError('expected a JSON array', line);
        depth = 1;
        continue;
      }
      if (depth === 1 && (code === COMMA || code === CLOSE_SQUARE)) {
        const text = pending + (start >= 0 ? chunk.slice(start, i) : '');
        if (text.trim() !== '') elements.push({ text, line: elementLine, index: index++ });
        else if (code === COMMA || index > 0) throw new ArrayFramingError('empty element in the array', line);
        pending = '';
        start = -1;
        if (code === CLOSE_SQUARE) {
          depth = 0;
          closed = true;
        }
        continue;
      }
      if (depth === 1 && start < 0 && pending === '') {
        start = i;
        elementLine = line;
      }
      if (code === QUOTE) inString = true;
      else if (code === OPEN_CURLY || code === OPEN_SQUARE) depth++;
      else if (code === CLOSE_CURLY || code === CLOSE_SQUARE) depth--;
    }
    if (start >= 0) pending += chunk.slice(start);
    start = -1;
    yield* elements;
  }
  if (!closed) throw new ArrayFramingError('the file ends before its top-level array is closed', line);
}
