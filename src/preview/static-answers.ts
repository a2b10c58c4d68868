import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import serveHandler from 'serve-handler';
import { namesEtag } from '../answer/answerer.ts';
import type { RewriteMap } from '../plan/rewrite-map.ts';
import { resolveRequest, type Answer } from '../routing/resolve-request.ts';
import { readFileBody, type FileBody } from './file-body.ts';
import type { ServedBuild } from './served-build.ts';

/**
 * Answers a request as a host without code does (contract sections 3, 6 and 8, `preview --static`):
 * by the rewrite map, from the files. Only a range is answered asynchronously (by serve-handler). Everything else is
 * answered before returning, without a promise and a microtask per request: a list page costs the
 * preview tens of microseconds of one core, and these were a few of them.
 */
export function answerFromFiles(dir: string, { map, etag }: ServedBuild, request: IncomingMessage, response: ServerResponse): Promise<void> | undefined {
  if (request.method === 'OPTIONS' && map.preflight !== undefined) {
    // With --cors, a preflight on any path: before the router, whose method step would answer 405.
    response.writeHead(map.preflight.status, map.preflight.headers);
    response.end();
    return;
  }
  const resolved = resolveRequest(map, request.method ?? 'GET', request.url ?? '/');
  if (resolved.kind === 'redirect') {
    response.writeHead(301, { ...map.headers, Location: resolved.location, 'Content-Length': 0 });
    response.end();
    return;
  }
  if (resolved.kind === 'error') {
    sendBody(response, map, resolved.status, resolved.body);
    return;
  }
  const file = path.join(dir, resolved.file);
  // The map fills its file names only with values it checked; a newer map must not change that.
  if (!file.startsWith(`${dir}${path.sep}`)) throw new Error(`the map names a file outside the folder: ${resolved.file}`);
  if (request.headers.range !== undefined) return serveRange(dir, map, resolved, request, response);
  const body = readFileBody(file);
  if (body === undefined) {
    // A file the map names but the build did not write (an unknown record id) is the route's `missingFile` answer.
    sendBody(response, map, resolved.missing.status, resolved.missing.body);
    return;
  }
  if (etag !== undefined && namesEtag(request.headers['if-none-match'], etag)) {
    // The build's ETag, as the answerer sends it: the client's copy is this build's.
    body.release();
    response.writeHead(304, { ...map.headers, ETag: etag });
    response.end();
    return;
  }
  response.writeHead(200, fileHeaders(map, body, etag));
  // For HEAD, node:http sends the head alone. The body's memory is reused once the socket is done with it.
  response.end(body.data, body.release);
}

export function answerInternalError(map: RewriteMap, request: IncomingMessage, response: ServerResponse, error: unknown): void {
  sendBody(response, map, 500, '{"detail":"Internal error."}');
  console.error(`preview: ${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
}

/**
 * The headers serve-handler sends with a whole file, its type replaced by the map's: those of
 * `{ 'Content-Length', 'Accept-Ranges', 'Last-Modified', ...map.headers }`, in that object's order. A
 * flat list of names and values, prepared once per map, so that a request only fills in its length
 * and date (node:http reads a list as it reads an object, without the object to build and walk).
 */
function fileHeaders(map: RewriteMap, body: FileBody, etag: string | undefined): OutgoingHttpHeader[] {
  let head = fileHeads.get(map);
  if (head === undefined || head.etag !== etag) {
    head = fileHead(map, etag);
    fileHeads.set(map, head);
  }
  const headers = head.list.slice();
  if (head.lengthAt >= 0) headers[head.lengthAt] = body.data.length;
  if (head.modifiedAt >= 0) headers[head.modifiedAt] = lastModified(body.modifiedMs);
  return headers;
}

interface FileHead {
  list: OutgoingHttpHeader[];
  /** Where the length and the date go in `list`; -1 where the map's own header took the place. */
  lengthAt: number;
  modifiedAt: number;
  etag: string | undefined;
}

const fileHeads = new WeakMap<RewriteMap, FileHead>();

function fileHead(map: RewriteMap, etag: string | undefined): FileHead {
  const merged: Record<string, OutgoingHttpHeader> = {
    'Content-Length': 0,
    'Accept-Ranges': 'bytes',
    'Last-Modified': '',
    ...map.headers,
    ...(etag === undefined ? {} : { ETag: etag }),
  };
  const names = Object.keys(merged);
  const valueAt = (name: string) => (Object.hasOwn(map.headers, name) ? -1 : 2 * names.indexOf(name) + 1);
  return { list: names.flatMap((name) => [name, merged[name]!]), lengthAt: valueAt('Content-Length'), modifiedAt: valueAt('Last-Modified'), etag };
}

/** Last-Modified by the second: a build writes its files within minutes, and formatting a date is not free. */
const modifiedTexts = new Map<number, string>();

/** As `stats.mtime.toUTCString()`: the milliseconds rounded (as `Stats` does), then shown to the second. */
function lastModified(modifiedMs: number): string {
  const second = Math.floor(Math.round(modifiedMs) / 1000);
  let text = modifiedTexts.get(second);
  if (text === undefined) {
    if (modifiedTexts.size >= 10_000) modifiedTexts.clear(); // builds replaced all day long: never grow without end
    text = new Date(second * 1000).toUTCString();
    modifiedTexts.set(second, text);
  }
  return text;
}

/** Ranges, rare from an API client: serve-handler answers them (206, 416), with the map's headers. */
async function serveRange(dir: string, map: RewriteMap, resolved: FileAnswer, request: IncomingMessage, response: ServerResponse): Promise<void> {
  request.url = `/${resolved.file}`;
  withApiHeaders(response, map.headers);
  await serveHandler(request, response, serveConfig(dir), {
    sendError: async (...args: unknown[]) => {
      const [, res, , , , , spec] = args as [unknown, ServerResponse, unknown, unknown, unknown, unknown, { statusCode: number }];
      if (spec.statusCode === 404) sendBody(res, map, resolved.missing.status, resolved.missing.body);
      else sendBody(res, map, 500, '{"detail":"Internal error."}');
    },
  } as ServeMethods);
}

type FileAnswer = Extract<Answer, { kind: 'file' }>;
type ServeConfig = NonNullable<Parameters<typeof serveHandler>[2]>;
type ServeMethods = NonNullable<Parameters<typeof serveHandler>[3]>;

const serveConfigs = new Map<string, ServeConfig>();

function serveConfig(dir: string): ServeConfig {
  let config = serveConfigs.get(dir);
  if (config === undefined) {
    config = { public: dir, cleanUrls: false, directoryListing: false, symlinks: false };
    serveConfigs.set(dir, config);
  }
  return config;
}

/**
 * serve-handler names the type by the extension (`application/json; charset=utf-8`) and adds
 * Content-Disposition; the API answers with exactly the map's headers. Set where serve-handler writes
 * its head: its own `headers` option would match a glob against every request.
 */
function withApiHeaders(response: ServerResponse, headers: Record<string, string>): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const given = (typeof rest[0] === 'object' && rest[0] !== null ? rest[0] : rest[1] ?? {}) as Record<string, unknown>;
    const merged: Record<string, unknown> = { ...given, ...headers };
    delete merged['Content-Disposition'];
    return writeHead.call(this, status, merged as OutgoingHttpHeaders);
  } as ServerResponse['writeHead'];
}

export function sendBody(response: ServerResponse, map: RewriteMap, status: number, body: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const data = Buffer.from(body, 'utf8');
  response.writeHead(status, { ...map.headers, 'Content-Length': data.length });
  response.end(data);
}
