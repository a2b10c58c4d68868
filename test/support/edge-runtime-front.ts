import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EdgeRuntime } from 'edge-runtime';

/**
 * The front that hands each request to the edge runtime as Vercel hands one to Routing Middleware: a
 * `Request` whose URL is the origin followed by the target as sent, whatever its method and length, so
 * that the middleware decides every answer. edge-runtime's own server (`runServer`) cannot: it reads the
 * target with `new URL(target, base)`, which takes a target starting `//` for a host, and Node's parser
 * answers a head over 16 KiB, a byte over 0x7F in the target or a method it does not know with its own
 * 400 or 431 before any code runs. Here the parser has room for any head up to 256 KiB, and a request it
 * refuses for those bytes or that method alone is read from the packet; raw bytes are percent-encoded,
 * as the WHATWG URL parser encodes them. What no platform would hand on (a NUL, a raw space, a control
 * character in the request line) keeps Node's bare 400.
 */
export interface RuntimeFront {
  url: string;
  close(): Promise<void>;
}

/** Far above any platform's limit of a request head (Vercel: 14 KB of URL, 32 KB of headers): the middleware's 414 shows. */
const MAX_HEAD_BYTES = 256 * 1024;

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export async function serveRuntime(runtime: EdgeRuntime): Promise<RuntimeFront> {
  const dispatch = async (method: string, target: string, headers: [string, string][]): Promise<Answer> => {
    const host = headers.find(([name]) => name.toLowerCase() === 'host')?.[1] ?? '127.0.0.1';
    let response: Response;
    try {
      // CONNECT's target is an authority: the URL of that host, as Deno makes it.
      response = await runtime.dispatchFetch(target.startsWith('/') ? `http://${host}${target}` : `http://${target}`, { method, headers });
    } catch (error) {
      // Fetch's forbidden methods (CONNECT, TRACE, TRACK): no Request is made, so no middleware runs.
      if (!/HTTP method is unsupported/.test((error as Error).message)) throw error;
      return { status: 501, headers: [], body: Buffer.from(`edge-runtime: ${(error as Error).message}`) };
    }
    return { status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) };
  };
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (request, response) => {
    const headers = Object.entries(request.headers).map(([name, value]): [string, string] => [name, [value ?? ''].flat().join(', ')]);
    dispatch(request.method ?? 'GET', request.url ?? '/', headers).then(
      (answer) => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      },
      (error: Error) => {
        response.writeHead(500, { 'Content-Type': 'text/plain' });
        response.end(`edge-runtime front: ${error.message}`);
      },
    );
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    const read = error.code === 'HPE_INVALID_URL' || error.code === 'HPE_INVALID_METHOD' ? readHead(error.rawPacket) : undefined;
    if (read === undefined) return socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    answerOnSocket(socket, read.method, read.target, read.headers);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => answerOnSocket(socket, 'CONNECT', request.url ?? '', []));
  /** The runtime's answer on a socket Node's server has let go of. */
  const answerOnSocket = (socket: Duplex, method: string, target: string, headers: [string, string][]) =>
    dispatch(method, target, headers).then(
      (answer) => writeAnswer(socket, answer, method === 'HEAD'),
      (failure: Error) => writeAnswer(socket, { status: 500, headers: [], body: Buffer.from(`edge-runtime front: ${failure.message}`) }),
    );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * A whole request head whose request line is wrong only by its method (any token) or by bytes over 0x7E
 * in its target: the method, the target with those bytes percent-encoded, and the headers; else undefined.
 */
function readHead(packet: Buffer | undefined): { method: string; target: string; headers: [string, string][] } | undefined {
  const end = packet?.indexOf('\r\n\r\n') ?? -1;
  if (end < 0) return undefined;
  const [line, ...fields] = packet!.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/[^\x00-\x20\x7f]*) HTTP\/1\.[01]$/.exec(line!);
  if (match === null) return undefined;
  const target = match[2]!.replace(/[\x80-\xff]/g, (byte) => `%${byte.charCodeAt(0).toString(16).toUpperCase()}`);
  const headers = fields.map((field): [string, string] => [field.slice(0, field.indexOf(':')), field.slice(field.indexOf(':') + 1).trim()]);
  return { method: match[1]!, target, headers };
}

/** An answer on a socket the parser gave up on, then closed; for HEAD, the head alone. */
function writeAnswer(socket: Duplex, answer: Answer, headOnly = false): void {
  const head = answer.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const start = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}Content-Length: ${answer.body.length}\r\nConnection: close\r\n\r\n`;
  socket.end(headOnly ? Buffer.from(start) : Buffer.concat([Buffer.from(start), answer.body]));
}
