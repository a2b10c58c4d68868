import path from 'node:path';
import { wholeNumber } from '../config.ts';
import { OptionsError } from '../errors.ts';
import type { UpstreamOptions } from './upstream.ts';

/** The environment variable the key may come from, so it never has to appear on a command line. */
export const TOKEN_VARIABLE = 'LDA_API_KEY';

/** The live service's limits: 15 requests a minute without a key, 120 with one. */
export const RATE_WITHOUT_KEY = 15;
export const RATE_WITH_KEY = 120;

/** What a user passes to a sync: loose, as it comes from the command line or a script. */
export interface SyncConfig {
  upstream?: string;
  out?: string;
  token?: string;
  /** Requests a minute. */
  rate?: string | number;
  concurrency?: string | number;
  full?: boolean;
  maxTries?: string | number;
  /** Milliseconds. */
  backoff?: string | number;
  /** Seconds. */
  timeout?: string | number;
}

/** A sync's options, resolved from a `SyncConfig` by `resolveSyncOptions`. */
export interface SyncOptions extends UpstreamOptions {
  out: string;
  mode: 'full' | 'incremental';
  concurrency: number;
}

export function resolveSyncOptions(config: SyncConfig, env: NodeJS.ProcessEnv = process.env): SyncOptions {
  const token = config.token ?? (env[TOKEN_VARIABLE] || undefined);
  return {
    upstream: parseUpstream(config.upstream),
    out: path.resolve(requireOption('--out', config.out)),
    token,
    rate: config.rate === undefined ? (token ? RATE_WITH_KEY : RATE_WITHOUT_KEY) : wholeNumber('--rate', config.rate, 1, 60_000),
    concurrency: wholeNumber('--concurrency', config.concurrency ?? '2', 1, 64),
    mode: config.full ? 'full' : 'incremental',
    maxTries: wholeNumber('--max-tries', config.maxTries ?? '8', 1, 100),
    backoffMs: wholeNumber('--backoff', config.backoff ?? '2000', 0),
    timeoutMs: wholeNumber('--timeout', config.timeout ?? '60', 1, 3600) * 1000,
  };
}

/** An absolute http(s) URL; a path prefix is kept, a trailing slash dropped, a query refused. */
export function parseUpstream(value: string | undefined): string {
  const text = requireOption('--upstream', value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OptionsError(`--upstream must be an absolute http(s) URL such as https://lda.gov, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OptionsError(`--upstream must be http or https, got "${text}"`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new OptionsError(`--upstream takes the service's base URL only (no query, fragment or credentials: use --token), got "${text}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function requireOption(option: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new OptionsError(`${option} is required`);
  return value;
}
