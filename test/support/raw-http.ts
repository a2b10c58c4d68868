import { connect } from 'node:net';

export interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends bytes as they are, request line and all, and reads the answer until the server closes: for
 * requests no HTTP client would send (bad methods, NUL bytes, raw backslashes, huge lines).
 */
export function exchange(port: number, request: Buffer | string, timeoutMs = 5000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer in time'));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is fine; no answer is caught below
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`));
      const [statusLine, ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = raw.subarray(split + 4);
      try {
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: headers['transfer-encoding'] === 'chunked' ? unchunked(body) : body });
      } catch (error) {
        reject(error);
      }
    });
    // Not end(): a half-closed connection may be dropped before an answer; the server closes (Connection: close).
    socket.write(request);
  });
}

/** A body sent in chunks (`Transfer-Encoding: chunked`), joined: each chunk is its size in hex, CRLF, the bytes, CRLF; size 0 ends it. */
function unchunked(body: Buffer): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`a chunked body broken at byte ${at}`);
    if (size === 0) break;
    chunks.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}
