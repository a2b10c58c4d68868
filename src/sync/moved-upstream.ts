/**
 * An upstream announcing its end: the live service said lda.senate.gov's API sunsets on 2026-06-30
 * with `Sunset` (RFC 8594) and `Link: <https://lda.gov/api/v1/>; rel="successor-version"` headers
 * (RFC 5829). A nightly sync that keeps calling the old address would fail one night without
 * warning, so the sync says it as soon as an answer carries either header.
 */
export interface MovedNotice {
  /** The request whose answer carried the headers. */
  url: string;
  /** The `Sunset` header as sent (an HTTP date), if any. */
  sunset?: string;
  /** The `successor-version` link's target, if any. */
  successor?: string;
}

/** The notice an answer's headers make, or undefined when they announce nothing. */
export function movedNotice(url: string, headers: Headers): MovedNotice | undefined {
  const sunset = headers.get('sunset') ?? undefined;
  const successor = successorLink(headers.get('link') ?? '');
  if (sunset === undefined && successor === undefined) return undefined;
  return { url, ...(sunset === undefined ? {} : { sunset }), ...(successor === undefined ? {} : { successor }) };
}

/** The target of the first `rel="successor-version"` link of a Link header (relations are space-separated, case-insensitive). */
function successorLink(link: string): string | undefined {
  for (const [, target, params] of link.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params!);
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (relations.includes('successor-version')) return target;
  }
  return undefined;
}

/** The warning line: what the upstream announced and the address to use instead. */
export function formatMovedNotice(notice: MovedNotice): string {
  const ends = notice.sunset === undefined ? 'announces it is moving' : `announces its end on ${notice.sunset} (Sunset header)`;
  const next = notice.successor === undefined ? '' : `; its new address: ${notice.successor} (use --upstream ${new URL(notice.successor, notice.url).origin})`;
  return `sync: warning: ${notice.url} ${ends}${next}`;
}
