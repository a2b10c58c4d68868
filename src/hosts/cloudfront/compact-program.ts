/**
 * The generated function (function.generated.js) as function.js carries it: comments, indentation
 * and the spaces between tokens left out, every line break and every token kept, so that the router
 * leaves the map room under CloudFront's 10 KB while the committed program stays readable. Made for
 * that one program (ES5 from TypeScript's printer: no template literals, no block comments), it
 * throws on anything else; a test parses both and compares the syntax trees.
 */
export function compactProgram(program: string): string {
  const lines = program.split('\n').map(compactLine).filter((line) => line !== '');
  return `${lines.join('\n')}\n`;
}

const WORD = /[A-Za-z0-9_$]/;

/** After these a `/` starts a regular expression; after anything else it divides. */
const BEFORE_REGEX = '(,=:[!&|?{};+-*%<>~^';
const KEYWORDS_BEFORE_REGEX = ['return', 'typeof', 'case', 'do', 'else', 'in', 'instanceof', 'new', 'delete', 'void', 'throw'];

function compactLine(line: string): string {
  let out = '';
  let at = 0;
  while (at < line.length) {
    const char = line[at]!;
    if (char === '`' || line.startsWith('/*', at)) throw new Error(`compactProgram: unexpected ${char === '`' ? 'template literal' : 'block comment'} in: ${line}`);
    if (line.startsWith('//', at)) break;
    if (char === ' ' || char === '\t') {
      let next = at;
      while (line[next] === ' ' || line[next] === '\t') next++;
      if (needsSpace(out.at(-1), line[next])) out += ' ';
      at = next;
      continue;
    }
    const end = char === '"' || char === "'" ? stringEnd(line, at) : char === '/' && regexMayStart(out) ? regexEnd(line, at) : at + 1;
    out += line.slice(at, end);
    at = end;
  }
  return out;
}

/** A space is needed between two word characters, and where `+ +`, `- -` would join into one token. */
function needsSpace(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  return (WORD.test(before) && WORD.test(after)) || (before === after && '+-/'.includes(before));
}

function regexMayStart(out: string): boolean {
  const last = out.at(-1);
  if (last === undefined || BEFORE_REGEX.includes(last)) return true;
  const word = /[A-Za-z_$][A-Za-z0-9_$]*$/.exec(out)?.[0];
  return word !== undefined && KEYWORDS_BEFORE_REGEX.includes(word);
}

function stringEnd(line: string, start: number): number {
  for (let at = start + 1; at < line.length; at++) {
    if (line[at] === '\\') at++;
    else if (line[at] === line[start]) return at + 1;
  }
  throw new Error(`compactProgram: unterminated string in: ${line}`);
}

function regexEnd(line: string, start: number): number {
  let inClass = false;
  for (let at = start + 1; at < line.length; at++) {
    const char = line[at];
    if (char === '\\') at++;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) {
      let end = at + 1;
      while (end < line.length && /[a-z]/.test(line[end]!)) end++;
      return end;
    }
  }
  throw new Error(`compactProgram: unterminated regular expression in: ${line}`);
}
