import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAnswerer, type Answerer, type AnswererOptions } from '../answer/answerer.ts';
import { bundleFolderReader } from '../built-folder.ts';
import type { ServedBuild } from './served-build.ts';
import { answerInternalError } from './static-answers.ts';

/**
 * Answers a request as the live service does (contract section 9), as every host that runs code
 * does: the answerer over the build's query bundle. One answerer per build, reading that build's own
 * folder; between the long steps of a search it lets the event loop answer other requests.
 */
export function answerFromBundle(build: ServedBuild, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const answerer = answererOf(build);
  const ifNoneMatch = request.headers['if-none-match'];
  return answerer.answer(request.method ?? 'GET', request.url ?? '/', { ifNoneMatch }).then(
    (reply) => {
      const body = Buffer.from(reply.body, 'utf8');
      // A 204 (preflight) or 304 carries no body and so no length.
      const length = reply.status === 204 || reply.status === 304 ? {} : { 'Content-Length': body.length };
      response.writeHead(reply.status, { ...reply.headers, ...length });
      // For HEAD, node:http sends the head alone.
      response.end(body);
    },
    (error: unknown) => answerInternalError(build.map, request, response, error),
  );
}

const answerers = new WeakMap<ServedBuild, Answerer>();

/**
 * What the preview keeps: a Node process with no 128 MB limit, so more than a Worker (files 20 + 12
 * MiB, results 8 MiB), yet bounded, so that it stays flat whatever it is asked (issue 39 point 3).
 * Enough for the whole bundle of the registry's size (134,719 clients: an index of 15 MB, chunks and
 * registrant packs of 88 MB), so that a stream of requests reads each file once: 32 MiB of index,
 * 128 MiB of records, 32 MiB of results; and 64 MiB of pages, some thousand pages of 25 clients
 * asked again (page-cache.ts). Its files need no check on each read: the preview checked
 * the whole bundle before serving the build (served-build.ts).
 */
const PREVIEW_KEEPS = { files: { index: 32 * 2 ** 20, records: 128 * 2 ** 20 }, results: 32 * 2 ** 20, pages: 64 * 2 ** 20 };

/** How the preview's answerer is made, but for its pauses: for the bench, which times it as the preview runs it. */
export const PREVIEW_ANSWERS: AnswererOptions = { keep: PREVIEW_KEEPS, checkReads: false };

/** The answerer of a build, for a request the HTTP parser did not hand on (malformed-requests.ts). */
export function answererOf(build: ServedBuild): Answerer {
  let answerer = answerers.get(build);
  if (answerer === undefined) {
    answerer = createAnswerer(bundleFolderReader(build.folder), { ...PREVIEW_ANSWERS, pause: nextTurn });
    answerers.set(build, answerer);
  }
  return answerer;
}

/** Lets the event loop answer what came in meanwhile. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
