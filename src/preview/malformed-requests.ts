import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Reply } from '../answer/answerer.ts';
import { MAX_TARGET_LENGTH, TARGET_TOO_LONG } from '../answer/answerer.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import { jsonText } from '../json-text.ts';

/**
 * Requests Node's HTTP parser rejects before any handler sees them (a method it does not know, bytes
 * not allowed in a request line, a request line or headers over its size limit) and CONNECT, which
 * it hands to a separate event. Node's own answer is a bare 400 or a dropped connection; the API
 * answers in JSON with its headers, never a 5xx.
 *
 * Three of them are answered as every other runtime answers them (issue 36): a request line too long
 * for the parser is the answerer's 414 for a target too long; raw UTF-8 bytes in a target (which
 * Django reads as UTF-8, and workerd, Deno and the edge runtime hand on percent-encoded) are
 * percent-encoded the same way, and a method the parser does not know (which Deno hands on) is kept;
 * both are answered by `answerTarget`, when the preview answers by the bundle.
 */
export type AnswerTarget = (method: string, target: string) => Promise<Reply>;

export function answerMalformedRequests(server: Server, currentMap: () => RewriteMap, answerTarget?: AnswerTarget): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const line = requestLine(error.rawPacket);
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      // The packet is the part the parser was reading: a whole request line of a target within the limit means the headers overflowed.
      const whole = line === undefined ? undefined : /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(line.toString('latin1'));
      if (whole === null || whole === undefined || whole[1]!.length > MAX_TARGET_LENGTH) return reply(socket, currentMap(), 414, TARGET_TOO_LONG);
      return reply(socket, currentMap(), 431, 'Request header fields too large.');
    }
    // A method the parser does not know, or raw bytes in the target: the answerer's answer, as in every
    // runtime whose parser hands them on (a path no route takes is a 404 whatever the method, as in Django).
    const encoded = line === undefined || answerTarget === undefined ? undefined : withRawBytesEncoded(line);
    if ((error.code === 'HPE_INVALID_URL' || error.code === 'HPE_INVALID_METHOD') && encoded !== undefined && error.rawPacket!.includes('\r\n\r\n')) {
      answerTarget!(encoded.method, encoded.target).then(
        (answer) => send(socket, answer.status, answer.headers, answer.body, encoded.method === 'HEAD'),
        () => reply(socket, currentMap(), 500, 'Internal error.'),
      );
      return;
    }
    if (error.code === 'HPE_INVALID_METHOD') return reply(socket, currentMap(), 405, `Method "${methodOf(error.rawPacket)}" not allowed.`);
    reply(socket, currentMap(), 400, 'Bad request.');
  });
  server.on('connect', (_request, socket: Duplex) => reply(socket, currentMap(), 405, 'Method "CONNECT" not allowed.'));
}

/** The request line of a packet, when the packet holds its end. */
function requestLine(packet: Buffer | undefined): Buffer | undefined {
  const end = packet?.indexOf('\r\n') ?? -1;
  return end < 0 ? undefined : packet!.subarray(0, end);
}

/**
 * `METHOD target HTTP/1.x`, the method any token, whose target is wrong at most by bytes over 0x7F: the
 * target with each such byte percent-encoded, as the WHATWG URL parser of the other runtimes encodes
 * it; else undefined.
 */
function withRawBytesEncoded(line: Buffer): { method: string; target: string } | undefined {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^ ]*) HTTP\/1\.[01]$/.exec(line.toString('latin1'));
  if (match === null) return undefined;
  let target = '';
  for (const byte of Buffer.from(match[2]!, 'latin1')) {
    if (byte > 0x7e) target += `%${byte.toString(16).toUpperCase()}`;
    else if (byte <= 0x20) return undefined;
    else target += String.fromCharCode(byte);
  }
  return { method: match[1]!, target };
}

function reply(socket: Duplex, map: RewriteMap, status: number, detail: string): void {
  send(socket, status, map.headers, jsonText({ detail }));
}

/** An answer on a socket the parser gave up on, then closed; for HEAD, the head alone. */
function send(socket: Duplex, status: number, headers: Record<string, string>, body: string, headOnly = false): void {
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${headOnly ? '' : body}`);
}

/** The method as sent, cut to the characters a method may have: it is echoed into JSON. */
function methodOf(packet: Buffer | undefined): string {
  const word = (packet?.subarray(0, 64).toString('latin1') ?? '').split(/[ \r\n]/, 1)[0] ?? '';
  return word.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '').slice(0, 32) || '?';
}
