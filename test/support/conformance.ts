import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendRaw, type RawResponse } from './http.ts';

/**
 * The conformance sets, copied into the repository from the shared material beside it
 * (`../shared/conformance`), so that a clone anywhere runs them; test/unit/conformance-copy.test.ts checks
 * the copy against the original wherever the original is there.
 */
export const CONFORMANCE_ROOT = fileURLToPath(new URL('../conformance-sets/', import.meta.url));
export const SHARED_CONFORMANCE_ROOT = fileURLToPath(new URL('../../../shared/conformance/', import.meta.url));
/** Sets answered where only files are served (contract sections 3, 6 and 8): every host. */
export const STATIC_SETS = ['lda-real', 'synthetic-1k', 'filters-3k'] as const;
/** Sets answered where code runs (contract section 9, their `profile` file says `exact`): the preview by default, the Worker, the edge functions. */
export const EXACT_SETS = ['exact-3k', 'registrants-3k'] as const;
export const ALL_SETS = [...STATIC_SETS, ...EXACT_SETS] as const;
/** How a host answers: as a host without code (`static`), or as the live service (`exact`). */
export type Profile = 'static' | 'exact';
export const CONFORMANCE_BASE_URL = 'http://mirror.test';

export interface ConformanceCase {
  id: number;
  method: string;
  target: string;
  kind: 'exact' | 'head' | 'method' | 'detail400' | 'redirect';
  status: number;
  headers?: Record<string, string>;
  body?: string;
  location?: string;
}

export function setFolder(set: string): string {
  return path.join(CONFORMANCE_ROOT, set);
}

export function loadCases(set: string): ConformanceCase[] {
  return readFileSync(path.join(setFolder(set), 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ConformanceCase);
}

/**
 * Sends one case to a running mirror and returns what differs from the expected answer (empty when it
 * passes), following the rules of the conformance README.
 */
export async function checkCase(origin: string, set: string, item: ConformanceCase): Promise<string[]> {
  const response = await sendRaw(origin, item.method, item.target);
  const problems: string[] = [];
  if (response.status !== item.status) problems.push(`status ${response.status}, expected ${item.status}`);
  if (item.kind !== 'redirect') problems.push(...headerProblems(response, item.headers ?? {}));

  if (item.kind === 'exact' || item.kind === 'method') {
    const expected = readFileSync(path.join(setFolder(set), item.body!));
    if (!response.body.equals(expected)) problems.push(`body differs: ${describeDifference(response.body, expected)}`);
  } else if (item.kind === 'head') {
    if (response.body.length !== 0) problems.push(`HEAD answered with a ${response.body.length}-byte body`);
  } else if (item.kind === 'detail400') {
    const parameter = rejectedParameter(item.target);
    const detail = parseDetail(response.body);
    if (detail === undefined) problems.push(`body is not a JSON object with a string detail: ${response.body.toString()}`);
    else if (!detail.includes(parameter)) problems.push(`detail does not name "${parameter}": ${detail}`);
  } else if (item.kind === 'redirect') {
    const location = response.headers.location;
    const resolved = typeof location === 'string' ? new URL(location, `${origin}${item.target}`) : undefined;
    const got = resolved ? `${resolved.pathname}${resolved.search}` : String(location);
    if (got !== item.location) problems.push(`Location resolves to ${got}, expected ${item.location}`);
  }
  return problems;
}

function headerProblems(response: RawResponse, expected: Record<string, string>): string[] {
  return Object.entries(expected)
    .filter(([name, value]) => response.headers[name.toLowerCase()] !== value)
    .map(([name, value]) => `header ${name}: ${JSON.stringify(response.headers[name.toLowerCase()])}, expected ${JSON.stringify(value)}`);
}

/** The parameter a 400 case rejects: the first one that is neither `format` nor `page`. */
/**
 * The parameter a `detail400` case rejects, judged in the contract's order (section 5): an unsupported
 * `ordering`, a `page_size` from 1 to 24, then the first filter with a value.
 */
function rejectedParameter(target: string): string {
  const query = new URLSearchParams(target.slice(target.indexOf('?') + 1));
  const ordering = query.get('ordering');
  if (ordering !== null && !['', '-id', '-name', '-effective_date'].includes(ordering)) return 'ordering';
  const size = query.get('page_size');
  if (size !== null && /^[0-9]+$/.test(size) && Number(size) >= 1 && Number(size) < 25) return 'page_size';
  for (const [name, value] of query) if (name !== 'format' && name !== 'page' && value !== '') return name;
  throw new Error(`no rejected parameter in ${target}`);
}

/** The `detail` string of a JSON error body, or undefined when the body is not one. */
export function parseDetail(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { detail?: unknown };
    return typeof parsed.detail === 'string' ? parsed.detail : undefined;
  } catch {
    return undefined;
  }
}

function describeDifference(actual: Buffer, expected: Buffer): string {
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  const around = (buffer: Buffer) => JSON.stringify(buffer.subarray(Math.max(0, at - 40), at + 40).toString('utf8'));
  return `first difference at byte ${at} (got ${actual.length} bytes, expected ${expected.length}): got ${around(actual)}, expected ${around(expected)}`;
}
