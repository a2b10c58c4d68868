import { movedNotice, type MovedNotice } from './moved-upstream.ts';
import { RateLimiter, systemClock, type Clock } from './rate-limiter.ts';

/**
 * The live service (or anything answering like it) seen through its list endpoint: one page at a
 * time, authenticated as the service expects, within its rate limit, retrying what is worth retrying
 * (429 after its Retry-After; 5xx, dropped connections and 200s that are not a page of the list with
 * exponential backoff) and failing with a message that names the request after a bounded number of
 * tries. The token goes in one header and nowhere else: never in a URL, a message or a log line.
 */
export interface UpstreamOptions {
  /** Base URL of the service, e.g. https://lda.gov; `/api/v1/clients/` is appended. */
  upstream: string;
  token?: string;
  /** Requests a minute. */
  rate: number;
  /** Tries per request before giving up (429s included). */
  maxTries: number;
  /** First backoff after a 5xx, a dropped connection or a 200 that is not a page; doubled each time, capped at a minute. */
  backoffMs: number;
  /** One request's limit, connection to last byte. */
  timeoutMs: number;
  /** Told about every wait that is not plain rate spacing, for the progress line. */
  onRetry?: (event: RetryEvent) => void;
  /** Told once, at the first answer announcing a `Sunset` or a `successor-version` link (moved-upstream.ts). */
  onMoved?: (notice: MovedNotice) => void;
}

export interface RetryEvent {
  url: string;
  reason: string;
  waitMs: number;
  attempt: number;
}

/** A page of the list, as much of it as the sync reads. */
export interface ClientPage {
  count: number;
  next: string | null;
  results: unknown[];
}

export class UpstreamError extends Error {}

const MAX_BACKOFF_MS = 60_000;

export class Upstream {
  private readonly limiter: RateLimiter;
  private readonly listUrl: string;
  /** Requests sent, retries included. */
  requests = 0;
  retries = 0;
  /** Whether a move was told, shared by the service's lists: one warning a sync, not one a list. */
  private readonly moved: { told: boolean };

  constructor(
    private readonly options: UpstreamOptions,
    private readonly clock: Clock = systemClock,
    /** The list walked: the clients, or the registrants (contract section 10). */
    listPath = '/api/v1/clients/',
    /** Shared with another list's walk, so that both keep within one rate. */
    limiter?: RateLimiter,
    moved?: { told: boolean },
  ) {
    this.limiter = limiter ?? new RateLimiter(options.rate, clock);
    this.moved = moved ?? { told: false };
    this.listUrl = `${options.upstream.replace(/\/+$/, '')}${listPath}`;
  }

  /** The same service's other list, within the same rate (and told of a move once for both). */
  list(listPath: string): Upstream {
    return new Upstream(this.options, this.clock, listPath, this.limiter, this.moved);
  }

  /** Page `page` of the list in `ordering` ('' for the service's default, ascending id). */
  async page(page: number, ordering = ''): Promise<ClientPage> {
    const query = new URLSearchParams();
    if (ordering !== '') query.set('ordering', ordering);
    if (page !== 1) query.set('page', String(page));
    const url = `${this.listUrl}${query.size > 0 ? `?${query}` : ''}`;
    return this.get(url);
  }

  private async get(url: string): Promise<ClientPage> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.token) headers.Authorization = `Token ${this.options.token}`;
    let failure = '';
    for (let attempt = 1; attempt <= this.options.maxTries; attempt++) {
      await this.limiter.take();
      this.requests++;
      let waitMs: number;
      try {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs), redirect: 'follow' });
        const body = await response.text();
        this.tellMoved(url, response.headers);
        if (response.status === 200) {
          const answer = readPage(body);
          if ('page' in answer) return answer.page;
          // A gateway's 200 (its maintenance page, a body a proxy cut short) passes like its 502 does.
          failure = `HTTP 200 but not a page of the list (${answer.problem}): ${bodyExcerpt(body)}`;
          waitMs = this.backoff(attempt);
        } else if (response.status === 429) {
          failure = `HTTP ${response.status}`;
          waitMs = retryAfterMs(response.headers.get('retry-after'), this.clock.now()) ?? this.backoff(attempt);
          this.limiter.holdUntil(this.clock.now() + waitMs);
        } else if (response.status >= 500) {
          failure = `HTTP ${response.status}`;
          waitMs = this.backoff(attempt);
        } else {
          throw new UpstreamError(`${url} answered ${response.status}${refusal(response.status, this.options.token)}: ${bodyExcerpt(body)}`);
        }
      } catch (error) {
        if (error instanceof UpstreamError) throw error;
        failure = describeNetworkError(error);
        waitMs = this.backoff(attempt);
      }
      if (attempt === this.options.maxTries) break;
      this.retries++;
      this.options.onRetry?.({ url, reason: failure, waitMs, attempt });
      await this.clock.sleep(waitMs);
    }
    throw new UpstreamError(`${url} failed ${this.options.maxTries} times; the last answer: ${failure}`);
  }

  private tellMoved(url: string, headers: Headers): void {
    if (this.moved.told || this.options.onMoved === undefined) return;
    const notice = movedNotice(url, headers);
    if (notice === undefined) return;
    this.moved.told = true;
    this.options.onMoved(notice);
  }

  private backoff(attempt: number): number {
    return Math.min(this.options.backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  }
}

/** The answer as a page of the list (an object with an integer count, a results array, next and previous), or what it lacks. */
function readPage(body: string): { page: ClientPage } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'JSON, but not an object' };
  const page = value as Record<string, unknown>;
  if (!Number.isSafeInteger(page.count) || (page.count as number) < 0) return { problem: 'no integer count' };
  if (!Array.isArray(page.results)) return { problem: 'no results array' };
  for (const link of ['next', 'previous']) {
    if (typeof page[link] !== 'string' && page[link] !== null) return { problem: `${link} is neither a URL nor null` };
  }
  return { page: { count: page.count as number, next: page.next as string | null, results: page.results } };
}

const EXCERPT_LENGTH = 200;

/**
 * The first characters of a body, for a message: on one line, in quotes, with control and format
 * characters escaped, so that an HTML page, a binary body or an escape sequence shows what it is
 * without flooding or repainting the terminal.
 */
export function bodyExcerpt(body: string): string {
  if (body === '') return '(an empty body)';
  const characters = [...body.slice(0, EXCERPT_LENGTH * 4).replace(/\s+/g, ' ')];
  const head = characters.slice(0, EXCERPT_LENGTH).join('');
  const escaped = head.replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  const more = characters.length > EXCERPT_LENGTH || body.length > EXCERPT_LENGTH * 4 ? '...' : '';
  return `"${escaped}"${more} (${body.length.toLocaleString('en-US')} characters)`;
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110, 10.2.3), in milliseconds from now. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function refusal(status: number, token: string | undefined): string {
  if (status === 401 || status === 403) return token ? ' (the key was refused: check --token or LDA_API_KEY)' : ' (the service wants a key: --token or LDA_API_KEY)';
  return '';
}

function describeNetworkError(error: unknown): string {
  const failure = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return 'timed out';
  const cause = failure.cause?.code ?? failure.cause?.message;
  return cause ? `connection failed (${cause})` : `connection failed (${failure.message ?? String(error)})`;
}
