import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ErrorAnswer, FiltersStep, RewriteMap, Route, ServedFilter } from '../../plan/rewrite-map.ts';
import { jsonText } from '../../json-text.ts';
import { MAP_KEY } from './runtime/function.ts';

/**
 * What the CloudFront Function reads from its key value store (see function.ts), as the store's import
 * file: the map in pieces, and a key per filter value. CloudFront allows 10 KB of function code, and
 * the router fills most of it, so none of the map is in the code: the code is the same for every build
 * and the store holds what the build decides.
 */

/**
 * CloudFront's limits for an import file ("File format for key-value pairs": file 5 MB, key 512
 * characters, value 1,024 characters), read strictly: bytes for characters, 5,000,000 for 5 MB, and
 * key and value together within 1,024 (the quotas give a pair 1 KB).
 */
export const STORE_LIMITS = { fileBytes: 5_000_000, keyBytes: 512, pairBytes: 1024 };

/** The map's text goes into pieces this long (ASCII, so as many bytes), leaving room for the key. */
const PIECE_LENGTH = 1000;

export interface StoreEntry {
  key: string;
  value: string;
}

/** The values of a filter whose lists the build wrote (its folders in the built folder). */
export type ListedValues = (filter: ServedFilter) => string[];

/**
 * The store's entries: `map` (how many pieces) and `map/0`... (the map's text, as the router reads
 * it); then, under the key of its folder (`client_state=CA/`), the last page of every filter value
 * with lists, and `0` for every other valid choice (a choice filter's valid values are exactly its
 * keys; a number without a key has no lists).
 */
export function storeEntries(map: RewriteMap, listed: ListedValues): StoreEntry[] {
  const pieces = mapPieces(functionMap(map));
  const entries: StoreEntry[] = [{ key: MAP_KEY, value: String(pieces.length) }];
  pieces.forEach((piece, at) => entries.push({ key: `${MAP_KEY}/${at}`, value: piece }));
  for (const { step } of filtersSteps(map)) {
    for (const filter of step.served) {
      const withLists = new Set([...listed(filter), ...Object.keys(filter.lastPages)]);
      const values = filter.values === 'number' ? [...withLists].sort(byNumber) : filter.choices!;
      for (const value of values) {
        const last = filter.lastPages[value] ?? (withLists.has(value) ? 1 : 0);
        entries.push({ key: folderOf(filter, value), value: String(last) });
      }
    }
  }
  checkEntries(entries);
  return entries;
}

/** The import file (`{"data":[{"key":...,"value":...}]}`), one pair a line; throws past CloudFront's 5 MB. */
export function importFile(entries: StoreEntry[]): string {
  const text = `{"data":[\n${entries.map((entry) => jsonText({ key: entry.key, value: entry.value })).join(',\n')}\n]}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > STORE_LIMITS.fileBytes) {
    throw new Error(`cloudfront: the key value store's import file would be ${bytes.toLocaleString('en-US')} bytes, over CloudFront's ${STORE_LIMITS.fileBytes.toLocaleString('en-US')}`);
  }
  return text;
}

/**
 * The values whose folders the build wrote, read from the built folder: the map names a list's
 * folders (`ServedFilter.folder` inside the route's file), but not which values have one. A build
 * without the folder (no list) has none.
 */
export function listedValues(map: RewriteMap, dir: string): ListedValues {
  return (filter) => {
    const found = filtersSteps(map).find(({ step }) => step.served.includes(filter));
    if (found === undefined) return [];
    const [prefix, suffix, ...more] = filter.folder.split('{value}');
    if (suffix === undefined || more.length > 0 || !suffix.endsWith('/') || suffix.slice(0, -1).includes('/') || prefix!.includes('/')) {
      throw new Error(`cloudfront: cannot list the folders of filter ${filter.param} (${filter.folder}): one folder, {value} once`);
    }
    const parent = path.join(dir, found.route.file.slice(0, found.route.file.indexOf(`{${found.step.sets}}`)));
    if (!existsSync(parent)) return [];
    const end = suffix.length - 1;
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix!) && entry.name.endsWith(suffix.slice(0, -1)))
      .map((entry) => entry.name.slice(prefix!.length, entry.name.length - end));
  };
}

/**
 * The map as the store carries it: what the router and the glue read, nothing more, so that it takes
 * few pieces (each a read on every request). Left out: the map's format and base URL, route names and
 * counts, `collapseSlashes` (the router always reads runs of `/` as one), the error files (the
 * function answers errors with their bodies), a templated error's fixed body, and the variants that
 * change nothing the router answers; the filters' choices and last pages, which have keys of their own.
 * A test runs the function over the store on every request of the conformance sets and the behaviour
 * probes, and compares the answers with the preview's.
 */
export function functionMap(map: RewriteMap): RewriteMap {
  const { format: _format, baseUrl: _baseUrl, paths, routes, errors, ...rest } = map;
  const { collapseSlashes: _collapse, ...pathRules } = paths;
  const carried = {
    ...rest,
    paths: pathRules,
    routes: routes.map(({ name: _name, count: _count, ...route }) => ({ ...route, steps: route.steps.map(withoutValues) })),
    errors: Object.fromEntries(Object.entries(errors).map(([name, answer]) => [name, answerAsRead(answer)])),
  };
  // Not a whole RewriteMap any more, but all of it the router reads.
  return carried as unknown as RewriteMap;
}

function withoutValues(step: Route['steps'][number]): Route['steps'][number] {
  if (step.step !== 'filters') return step;
  return { ...step, served: step.served.map((filter) => ({ ...filter, ...(filter.choices ? { choices: [] } : {}), lastPages: {} })) };
}

/** An error answer as the router reads it: its status and template, or its body; the variants that have their own. */
function answerAsRead(answer: ErrorAnswer): Partial<ErrorAnswer> {
  const { file: _file, variants, body, template, echo, status } = answer;
  const read: Partial<ErrorAnswer> = template === undefined ? { status, body } : { status, template, ...(echo ? { echo } : {}) };
  // Without a template of its own, a variant's body is replaced by the answer's filled-in template.
  const own = Object.entries(variants ?? {}).filter(([, variant]) => variant.template !== undefined || template === undefined);
  if (own.length === 0) return read;
  const asRead = (variant: ErrorAnswer) =>
    variant.template === undefined ? { body: variant.body } : { template: variant.template, ...(variant.echo ? { echo: variant.echo } : {}) };
  return { ...read, variants: Object.fromEntries(own.map(([name, variant]) => [name, asRead(variant) as ErrorAnswer])) };
}

/** The map's text in pieces, with every character beyond ASCII escaped so that a piece's length is its size. */
function mapPieces(map: RewriteMap): string[] {
  const text = jsonText(map).replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += PIECE_LENGTH) pieces.push(text.slice(at, at + PIECE_LENGTH));
  return pieces;
}

function filtersSteps(map: RewriteMap): { route: Route; step: FiltersStep }[] {
  return map.routes.flatMap((route) => route.steps.filter((step): step is FiltersStep => step.step === 'filters').map((step) => ({ route, step })));
}

function folderOf(filter: ServedFilter, value: string): string {
  return filter.folder.split('{value}').join(value);
}

function byNumber(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function checkEntries(entries: StoreEntry[]): void {
  const keys = new Set<string>();
  for (const { key, value } of entries) {
    if (keys.has(key)) throw new Error(`cloudfront: two values for the store's key ${JSON.stringify(key)}`);
    keys.add(key);
    const keyBytes = Buffer.byteLength(key);
    if (keyBytes > STORE_LIMITS.keyBytes || keyBytes + Buffer.byteLength(value) > STORE_LIMITS.pairBytes) {
      throw new Error(`cloudfront: the store's key ${JSON.stringify(key)} and its value are over CloudFront's limits (key 512 bytes, pair 1 KB)`);
    }
  }
}
