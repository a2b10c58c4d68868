import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAnswerer, type Answerer } from '../answer/answerer.ts';
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
  return answerer.answer(request.method ?? 'GET', request.url ?? '/').then(
    (reply) => {
      const body = Buffer.from(reply.body, 'utf8');
      response.writeHead(reply.status, { ...reply.headers, 'Content-Length': body.length });
      // For HEAD, node:http sends the head alone.
      response.end(body);
    },
    (error: unknown) => answerInternalError(build.map, request, response, error),
  );
}

const answerers = new WeakMap<ServedBuild, Answerer>();

function answererOf(build: ServedBuild): Answerer {
  let answerer = answerers.get(build);
  if (answerer === undefined) {
    answerer = createAnswerer(bundleFolderReader(build.folder), { pause: nextTurn });
    answerers.set(build, answerer);
  }
  return answerer;
}

/** Lets the event loop answer what came in meanwhile. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
