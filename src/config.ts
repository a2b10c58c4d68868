import { availableParallelism } from 'node:os';
import { DEFAULT_CACHE_CONTROL, FILTER_NAMES, FORMATS, UNANSWERABLE_FILTERS, type FilterName, type Format, type HttpSettings } from './contract.ts';
import { OptionsError } from './errors.ts';

/** What a user passes to a build: loose strings, as they come from the command line. */
export interface BuildConfig {
  /** Records files, folders or globs: one, or several. */
  input?: string | string[];
  out?: string;
  baseUrl?: string;
  formats?: string;
  /** `--cors <origin>`: the origin allowed to read answers from a web page (`*`: any). Off by default. */
  cors?: string;
  /** `--cache-control <value>`, or `none` (default: `public, max-age=3600`). */
  cacheControl?: string;
  /** `--filters a,b,c`, or `none`. */
  filters?: string;
  concurrency?: string | number;
  problemLimit?: string | number;
  skipInvalid?: boolean;
  skipCheck?: boolean;
  /** Build even when the inputs, options and program are those of the current output. */
  force?: boolean;
  /** Remove the previous build before returning (`wait`, the default), or in a process of its own (`background`, the command line). */
  removePrevious?: 'wait' | 'background';
}

/** A build's settings, checked and resolved once. */
export interface BuildOptions {
  inputs: string[];
  out: string;
  baseUrl: string;
  formats: Format[];
  /** Cache-Control and CORS: recorded in the rewrite map and the bundle, so every host sends the same. */
  http: HttpSettings;
  /** The filters whose lists are precomputed (contract section 8), in a fixed order. */
  filters: FilterName[];
  concurrency: number;
  problemLimit: number;
  skipInvalid: boolean;
  /** Verify the new folder (links, reachability, counts, manifest) before switching to it. */
  check: boolean;
  force: boolean;
  removePrevious: 'wait' | 'background';
  /** What the user should know about the settings (a default they may not want), for the command to print. */
  warnings: string[];
}

/** Where a build reads and writes, and the URL of its links, when the user does not say. */
export const DEFAULT_INPUT = 'data';
export const DEFAULT_OUT = 'dist';
/** Where the preview listens when the user does not say; the default base URL points at it. */
export const DEFAULT_PORT = 3000;
export const DEFAULT_BASE_URL = `http://localhost:${DEFAULT_PORT}`;

export const DEFAULT_FORMATS = 'none,api,json';
export const DEFAULT_FILTERS = 'registrant_id,client_state,client_country';

export function resolveBuildOptions(config: BuildConfig): BuildOptions {
  const warnings: string[] = [];
  if (!config.baseUrl) {
    warnings.push(
      `no --base-url given: every link points at ${DEFAULT_BASE_URL}, right for npm run preview only. ` +
        'To publish, build with --base-url <the URL the mirror is served at>.',
    );
  }
  const inputs = [config.input ?? []].flat();
  return {
    inputs: inputs.length === 0 ? [DEFAULT_INPUT] : inputs,
    out: config.out || DEFAULT_OUT,
    baseUrl: parseBaseUrl(config.baseUrl || DEFAULT_BASE_URL),
    formats: parseFormats(config.formats ?? DEFAULT_FORMATS),
    http: { cacheControl: parseCacheControl(config.cacheControl ?? DEFAULT_CACHE_CONTROL), ...(config.cors === undefined ? {} : { cors: parseCors(config.cors) }) },
    filters: parseFilters(config.filters ?? DEFAULT_FILTERS),
    concurrency: wholeNumber('--concurrency', config.concurrency ?? availableParallelism(), 1),
    problemLimit: wholeNumber('--problem-limit', config.problemLimit ?? 50, 1),
    skipInvalid: config.skipInvalid ?? false,
    check: !(config.skipCheck ?? false),
    force: config.force ?? false,
    removePrevious: config.removePrevious ?? 'wait',
    warnings,
  };
}

/**
 * The base URL of every link (contract section 2): scheme, host and optional port, nothing else.
 * Returned as the URL's origin, which cannot hold a character that needs escaping inside JSON.
 */
export function parseBaseUrl(value: string | undefined): string {
  if (!value) throw new OptionsError('--base-url is required: the absolute http(s) URL the mirror is served at, e.g. https://mirror.example.org');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OptionsError(`--base-url must be an absolute http(s) URL such as https://mirror.example.org, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OptionsError(`--base-url must use http or https, got "${value}"`);
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new OptionsError(`--base-url must be scheme, host and optional port only (no path, query or credentials), got "${value}"`);
  }
  return url.origin;
}

/** `--cors`: `*`, or one origin (scheme, host, optional port), as browsers compare it. */
export function parseCors(value: string): string {
  if (value === '*') return value;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, '')) {
    throw new OptionsError(`--cors must be * or an origin such as https://observablehq.com (scheme, host, optional port), got "${value}"`);
  }
  return url.origin;
}

/** `--cache-control`: a header value on one line, or `none`. */
export function parseCacheControl(value: string): string {
  if (value.trim() === '' || /[\r\n\0]/.test(value) || !/^[\x20-\x7e]+$/.test(value)) {
    throw new OptionsError(`--cache-control must be a header value such as "public, max-age=3600", or none; got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

/** `--formats none,api,json`: `none` is the request without a `format` parameter. */
export function parseFormats(value: string): Format[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new OptionsError('--formats needs at least one of none, api, json');
  const formats: Format[] = [];
  for (const name of names) {
    const format = (name === 'none' ? '' : name) as Format;
    if (!FORMATS.includes(format)) throw new OptionsError(`--formats: unknown format "${name}"; choose from none, api, json`);
    if (!formats.includes(format)) formats.push(format);
  }
  // A fixed order, so that the same formats in any order give the same output.
  return FORMATS.filter((format) => formats.includes(format));
}

/** `--filters registrant_id,client_state`, or `none` for no filtered lists at all. */
export function parseFilters(value: string): FilterName[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const choose = `choose from ${FILTER_NAMES.join(', ')}, or none`;
  if (names.length === 0) throw new OptionsError(`--filters needs a list of filters; ${choose}`);
  if (names.length === 1 && names[0] === 'none') return [];
  for (const name of names) {
    if (name === 'none') throw new OptionsError('--filters none cannot be combined with filters; give either none or a list');
    if (Object.hasOwn(UNANSWERABLE_FILTERS, name)) {
      throw new OptionsError(`--filters: ${name} cannot be precomputed as files (${UNANSWERABLE_FILTERS[name]}); ${choose}`);
    }
    if (!(FILTER_NAMES as string[]).includes(name)) throw new OptionsError(`--filters: unknown filter "${name}"; ${choose}`);
  }
  // A fixed order, so that the same filters in any order give the same output.
  return FILTER_NAMES.filter((name) => names.includes(name));
}

export function wholeNumber(option: string, value: string | number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = String(value).trim();
  const number = Number(text);
  if (!/^[0-9]+$/.test(text) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
    throw new OptionsError(`${option} must be a whole number ${range}, got "${value}"`);
  }
  return number;
}
