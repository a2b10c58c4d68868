import { isIPv4 } from 'node:net';

/**
 * A base URL that leads back to the machine reading it: `localhost` (and `*.localhost`, which
 * browsers resolve to it), 127.0.0.0/8, `[::1]`, and the unspecified `0.0.0.0` and `[::]`. A mirror
 * published with one answers every `url`, `next` and `previous` with a link to the visitor's own
 * machine, so `emit` refuses it unless told (`--allow-local-base-url`).
 */
export function isLocalBaseUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '[::]') return true;
  return isIPv4(host) && (host.startsWith('127.') || host === '0.0.0.0');
}
