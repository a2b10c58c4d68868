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
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: raw.subarray(split + 4) });
    });
    // Not end(): a half-closed connection may be dropped before an answer; the server closes (Connection: close).
    socket.write(request);
  });
}
