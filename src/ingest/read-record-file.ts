import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { InputProblem } from '../errors.ts';
import { ArrayFramingError, jsonArrayElements } from './json-array-elements.ts';

/** One client record as found in an input file, with where it was found. */
export interface SourcedRecord {
  kind: 'record';
  value: unknown;
  file: string;
  line: number;
  index?: number;
}

export interface SourcedProblem {
  kind: 'problem';
  problem: InputProblem;
}

export type ReadItem = SourcedRecord | SourcedProblem;

/**
 * Reads the client records of one file, whatever its shape (contract section 7): NDJSON (one record,
 * or one saved page, a line), a JSON array of records, or a saved page of the live API (an object whose
 * `results` holds the records). Malformed text is reported as a problem and reading goes on, so that
 * one run lists every problem. `name` is how the file is named in messages.
 */
export async function* readRecordFile(file: string, name = file): AsyncGenerator<ReadItem> {
  const shape = await detectShape(file);
  if (shape === 'array') yield* readArray(file, name);
  else if (shape === 'document') yield* readDocument(file, name);
  else yield* readLines(file, name);
}

type Shape = 'lines' | 'array' | 'document';

/** NDJSON by extension; a `.json` file by its first character, then by whether its first line parses. */
async function detectShape(file: string): Promise<Shape> {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return 'lines';
  const head = await readHead(file, 64 * 1024);
  const first = head.trimStart()[0];
  if (first === '[') return 'array';
  const firstLine = head.split('\n', 1)[0] ?? '';
  // A whole JSON document on one line is also one NDJSON line: both readings agree.
  return parses(firstLine) ? 'lines' : 'document';
}

async function* readLines(file: string, name: string): AsyncGenerator<ReadItem> {
  let line = 0;
  for await (const lines of lineBatches(file)) {
    for (const text of lines) {
      line++;
      const trimmed = (line === 1 ? stripBom(text) : text).trim();
      if (trimmed === '') continue;
      const parsed = parseJson(trimmed);
      if (parsed.ok) yield* recordsOf(parsed.value, name, line);
      else yield problem({ file: name, line, message: `malformed JSON: ${parsed.message}` });
    }
  }
}

/**
 * The lines of a text file, a chunk's worth at a time, split at the bytes and decoded line by line:
 * readline decoded the text as a stream and split it with a regular expression, which cost more than
 * parsing the records. The same lines as readline gives: a line ends at `\r\n`, `\n` or a `\r` alone
 * (a `\n` byte is never part of a longer UTF-8 character, so a chunk is only cut between lines).
 * One buffer of 64 KiB is read into again and again, and the lines of each read go out together:
 * with a new 1 MiB buffer per chunk (a stream's), and even with one such buffer reused, reading
 * 134,719 records peaked 20-27 MB higher than readline did; at 64 KiB it peaks no higher.
 */
export async function* lineBatches(file: string): AsyncGenerator<string[]> {
  const handle = await open(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(1 << 16);
    // Bytes at the start of `buffer` that belong to a line not yet ended.
    let carried = 0;
    for (;;) {
      if (carried === buffer.length) buffer = Buffer.concat([buffer], buffer.length * 2); // a line longer than the buffer
      const { bytesRead } = await handle.read(buffer, carried, buffer.length - carried, null);
      if (bytesRead === 0) break;
      const data = buffer.subarray(0, carried + bytesRead);
      const lines: string[] = [];
      let start = 0;
      for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a, start)) {
        addLines(lines, data.toString('utf8', start, end));
        start = end + 1;
      }
      carried = data.copy(buffer, 0, start);
      if (lines.length > 0) yield lines;
    }
    if (carried > 0) {
      const lines: string[] = [];
      addLines(lines, buffer.toString('utf8', 0, carried));
      yield lines;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The lines in the text before a `\n` (or the end of the file): one, unless it holds a `\r` alone,
 * which also ends a line. A `\r` at its end ends the line either way: it is half of `\r\n`, or the
 * end of the file follows.
 */
function addLines(lines: string[], text: string): void {
  if (!text.includes('\r')) {
    lines.push(text);
    return;
  }
  const parts = text.split('\r');
  if (text.endsWith('\r')) parts.pop();
  lines.push(...parts);
}

async function* readArray(file: string, name: string): AsyncGenerator<ReadItem> {
  const chunks = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const element of jsonArrayElements(stripBomStream(chunks))) {
      const parsed = parseJson(element.text);
      if (parsed.ok) yield { kind: 'record', value: parsed.value, file: name, line: element.line, index: element.index };
      else yield problem({ file: name, line: element.line, index: element.index, message: `malformed JSON: ${parsed.message}` });
    }
  } catch (error) {
    if (!(error instanceof ArrayFramingError)) throw error;
    yield problem({ file: name, line: error.line, message: `malformed JSON: ${error.message}` });
  }
}

/** A saved page (or a single record) spread over several lines: small, so read whole. */
async function* readDocument(file: string, name: string): AsyncGenerator<ReadItem> {
  const text = stripBom(await readFile(file, 'utf8'));
  const parsed = parseJson(text);
  if (!parsed.ok) {
    yield problem({ file: name, line: lineOfPosition(text, parsed.position), message: `malformed JSON: ${parsed.message}` });
    return;
  }
  yield* recordsOf(parsed.value, name, 1, text);
}

/** A parsed value is a saved page (its `results`) or one record. */
function* recordsOf(value: unknown, file: string, line: number, documentText?: string): Generator<ReadItem> {
  if (isSavedPage(value)) {
    const results = value.results as unknown[];
    for (let index = 0; index < results.length; index++) {
      const at = documentText === undefined ? line : lineOfRecord(documentText, results[index], line);
      yield { kind: 'record', value: results[index], file, line: at, index };
    }
    return;
  }
  yield { kind: 'record', value, file, line };
}

function isSavedPage(value: unknown): value is { results: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('id' in value) &&
    Array.isArray((value as { results?: unknown }).results)
  );
}

/** Best effort for a pretty-printed page: the line where that record's `"id": N` first appears. */
function lineOfRecord(text: string, record: unknown, fallback: number): number {
  const id = (record as { id?: unknown } | null)?.id;
  if (typeof id !== 'number') return fallback;
  const match = new RegExp(`"id"\\s*:\\s*${id}\\b`).exec(text);
  return match ? lineOfPosition(text, match.index) : fallback;
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string; position: number };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    return { ok: false, message, position };
  }
}

function parses(text: string): boolean {
  return text.trim() !== '' && parseJson(stripBom(text)).ok;
}

function lineOfPosition(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function problem(found: InputProblem): SourcedProblem {
  return { kind: 'problem', problem: found };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function* stripBomStream(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  let first = true;
  for await (const chunk of chunks) {
    const text = String(chunk);
    yield first ? stripBom(text) : text;
    first = false;
  }
}

async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return stripBom(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}
