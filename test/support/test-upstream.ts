import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadMap } from '../../src/built-folder.ts';
import { expectedExchange } from './host-behaviours.ts';

/**
 * A stand-in for the live service in sync tests: it answers from a built folder exactly as the mirror
 * does (the preview's answer, `expectedExchange`), logs every request (with its Authorization header and arrival time), and lets a test make any
 * request fail: a status with headers (429 with Retry-After, 503...), a connection dropped before the
 * answer, or one cut in the middle of the body.
 */
export type Fault = { status: number; headers?: Record<string, string>; body?: string } | 'drop' | 'cut';

export interface LoggedRequest {
  number: number;
  at: number;
  target: string;
  authorization: string | undefined;
  answered: number | 'drop' | 'cut';
}

export interface TestUpstream {
  url: string;
  log: LoggedRequest[];
  /** Serves another built folder from now on (the upstream's data changed). */
  serve(dir: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestUpstream(dir: string, faultFor: (request: LoggedRequest) => Fault | undefined = () => undefined): Promise<TestUpstream> {
  let folder = dir;
  let map = await loadMap(dir);
  const log: LoggedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const entry: LoggedRequest = {
      number: log.length + 1,
      at: Date.now(),
      target: request.url ?? '/',
      authorization: request.headers.authorization,
      answered: 0,
    };
    log.push(entry);
    const fault = faultFor(entry);
    if (fault === 'drop') {
      entry.answered = 'drop';
      request.socket.destroy();
      return;
    }
    if (fault === 'cut') {
      entry.answered = 'cut';
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
      response.write('{"count":1,"next":null,"previous":null,"results":[{"id":');
      setTimeout(() => request.socket.destroy(), 20);
      return;
    }
    const answer = fault ?? expectedExchange(map, folder, { method: request.method ?? 'GET', target: entry.target });
    entry.answered = answer.status;
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async serve(next) {
      folder = next;
      map = await loadMap(next);
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
