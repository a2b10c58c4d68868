import { UpstreamError, type ClientPage } from './upstream.ts';

/** Each record of a page as one JSON line, its keys in the upstream's order. */
export function recordLines(page: ClientPage): string[] {
  return page.results.map((record) => JSON.stringify(record));
}

export function idOf(line: string): number {
  const id = (JSON.parse(line) as { id?: unknown }).id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new UpstreamError(`the upstream sent a client without an integer id: ${line.slice(0, 200)}`);
  return id;
}

/** Records by id; a later copy of an id replaces an earlier one. */
export function mergeById(lines: Iterable<string>): Map<number, string> {
  const merged = new Map<number, string>();
  for (const line of lines) merged.set(idOf(line), line);
  return merged;
}

export function* sortedLines(records: Map<number, string>): Generator<string> {
  for (const id of [...records.keys()].sort((a, b) => a - b)) yield records.get(id)!;
}
