import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import { jsonText } from '../json-text.ts';

/**
 * Requests Node's HTTP parser rejects before any handler sees them (a method it does not know, bytes
 * not allowed in a request line, a request line or headers over its size limit) and CONNECT, which
 * it hands to a separate event. Node's own answer is a bare 400 or a dropped connection; the API
 * answers in JSON with its headers, never a 5xx.
 */
export function answerMalformedRequests(server: Server, currentMap: () => RewriteMap): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') return reply(socket, currentMap(), 431, 'Request header fields too large.');
    if (error.code === 'HPE_INVALID_METHOD') return reply(socket, currentMap(), 405, `Method "${methodOf(error.rawPacket)}" not allowed.`);
    reply(socket, currentMap(), 400, 'Bad request.');
  });
  server.on('connect', (_request, socket: Duplex) => reply(socket, currentMap(), 405, 'Method "CONNECT" not allowed.'));
}

function reply(socket: Duplex, map: RewriteMap, status: number, detail: string): void {
  const body = jsonText({ detail });
  const headers = Object.entries(map.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The method as sent, cut to the characters a method may have: it is echoed into JSON. */
function methodOf(packet: Buffer | undefined): string {
  const word = (packet?.subarray(0, 64).toString('latin1') ?? '').split(/[ \r\n]/, 1)[0] ?? '';
  return word.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '').slice(0, 32) || '?';
}
