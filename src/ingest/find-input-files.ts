import { stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { InputError } from '../errors.ts';

/** The extensions read from an input folder. */
export const RECORD_FILE_GLOB = '**/*.{ndjson,jsonl,json}';

/**
 * Expands each `--input` (a file, a folder, or a glob) into records files, in the order that decides
 * which copy of a duplicated client wins: sorted by path, by code unit, never by locale.
 */
export async function findInputFiles(inputs: readonly string[], cwd = process.cwd()): Promise<string[]> {
  const found = new Set<string>();
  for (const input of inputs) {
    for (const file of await expandInput(input, cwd)) found.add(file);
  }
  return [...found].sort(byCodeUnit);
}

async function expandInput(input: string, cwd: string): Promise<string[]> {
  const absolute = path.resolve(cwd, input);
  const info = await stat(absolute).catch(() => undefined);
  if (info?.isFile()) return [absolute];
  if (info?.isDirectory()) {
    const files = await fg(RECORD_FILE_GLOB, { cwd: absolute, absolute: true, onlyFiles: true });
    if (files.length === 0) {
      throw new InputError([{ file: input, message: 'this folder holds no .ndjson, .jsonl or .json records file' }]);
    }
    return files;
  }
  const matches = await fg(input, { cwd, absolute: true, onlyFiles: true });
  if (matches.length === 0) {
    throw new InputError([{ file: input, message: 'no such file or folder, and no file matches it as a glob' }]);
  }
  return matches;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
