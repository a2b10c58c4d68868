import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnswerer } from '../../src/answer/answerer.ts';
import { bundleFolderReader, loadMap } from '../../src/built-folder.ts';
import { expectedExchange, type Exchange } from './host-behaviours.ts';

/**
 * A stand-in for the live service in sync tests: it answers from a built folder exactly as the mirror
 * does (the preview's answer, `expectedExchange`), logs every request (with its Authorization header and arrival time), and lets a test make any
 * request fail: a status with headers and any body (429 with Retry-After, 503, a 200 that is not a
 * page...), a connection dropped before the answer or reset (a TCP RST), one cut in the middle of the
 * body, or one left without an answer until the client gives up.
 */
export type Fault = { status: number; headers?: Record<string, string>; body?: string | Buffer } | ConnectionFault;
type ConnectionFault = 'drop' | 'reset' | 'cut' | 'stall';

export interface LoggedRequest {
  number: number;
  at: number;
  target: string;
  authorization: string | undefined;
  answered: number | ConnectionFault;
}

/** Chooses a request's fault, if any; `honest` is the answer it would get otherwise. */
export type FaultChooser = (request: LoggedRequest, honest: () => Exchange) => Fault | undefined;

export interface TestUpstream {
  url: string;
  log: LoggedRequest[];
  /** Serves another built folder from now on (the upstream's data changed). */
  serve(dir: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestUpstream(dir: string, faultFor: FaultChooser = () => undefined): Promise<TestUpstream> {
  let folder = dir;
  let map = await loadMap(dir);
  const answererOf = (root: string) => createAnswerer(bundleFolderReader(root), { cacheResults: false });
  let answerer = answererOf(dir);
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
    const honest = () => expectedExchange(map, folder, { method: request.method ?? 'GET', target: entry.target });
    const fault = faultFor(entry, honest);
    if (fault === 'drop' || fault === 'reset' || fault === 'stall') {
      entry.answered = fault;
      if (fault === 'drop') request.socket.destroy();
      if (fault === 'reset') request.socket.resetAndDestroy();
      // A stall holds the connection until the client times out (or stop() closes it).
      return;
    }
    if (fault === 'cut') {
      entry.answered = 'cut';
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
      response.write('{"count":1,"next":null,"previous":null,"results":[{"id":');
      setTimeout(() => request.socket.destroy(), 20);
      return;
    }
    // The registrants list answers as the live service does (contract section 10), orderings and all:
    // the answerer over the served build's bundle (no host without code serves `-dt_updated`).
    const answered = fault !== undefined || !isRegistrantsList(entry.target) ? Promise.resolve(fault ?? honest()) : answerer.answer(request.method ?? 'GET', entry.target);
    void answered.then((answer) => {
      entry.answered = answer.status;
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async serve(next) {
      folder = next;
      map = await loadMap(next);
      answerer = answererOf(next);
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isRegistrantsList(target: string): boolean {
  const queryStart = target.indexOf('?');
  return (queryStart < 0 ? target : target.slice(0, queryStart)) === '/api/v1/registrants/';
}
