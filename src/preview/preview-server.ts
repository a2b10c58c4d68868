import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { answererOf, answerFromBundle } from './exact-answers.ts';
import { answerMalformedRequests } from './malformed-requests.ts';
import { watchBuild } from './served-build.ts';
import { answerFromFiles, answerInternalError, sendBody } from './static-answers.ts';
import { MAX_TARGET_LENGTH, TARGET_TOO_LONG } from '../answer/answerer.ts';
import { jsonText } from '../json-text.ts';

export interface PreviewOptions {
  /** The built folder (the output path of a build). */
  dir: string;
  port: number;
  host?: string;
  /**
   * Answer only from the files and the rewrite map, as a host without code does (contract sections 3,
   * 6 and 8). By default the preview answers every request as the live service does (section 9).
   */
  static?: boolean;
}

/**
 * Node reads request heads up to 16 KiB by default, answering longer ones itself; the answerer's limit
 * on the target is 16 KiB (a 414, docs/answers.md), so the head may be longer, and a target past this
 * is the same 414 (malformed-requests.ts).
 */
const MAX_HEAD_BYTES = 64 * 1024;

export interface RunningPreview {
  url: string;
  /** The Node server, for the preview in Node (not in workerd). */
  server?: Server;
  close(): Promise<void>;
}

/**
 * The local preview, node:http in two ways:
 * - by default, every request answered as the live service answers it (contract section 9) by the
 *   answerer over the build's query bundle, as the Worker and the edge functions answer;
 * - with `static`, as a host without code answers: the rewrite map resolves each request to a file,
 *   read and sent whole (a range request goes to serve-handler, the core of `serve`).
 * Either way only the build's own files are read: the preview never lists a folder or reaches
 * outside the built one, and a new build replaces the one served without a restart.
 */
export async function startPreview(options: PreviewOptions): Promise<RunningPreview> {
  const dir = path.resolve(options.dir);
  const builds = await watchBuild(dir, { checked: !options.static });
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, (request, response) => {
    const build = builds.current();
    // The answerer answers a target too long itself (answer/answerer.ts); the static answers, the same way.
    if (options.static && (request.url ?? '').length > MAX_TARGET_LENGTH) return sendBody(response, build.map, 414, jsonText({ detail: TARGET_TOO_LONG }));
    try {
      const answering = options.static ? answerFromFiles(build.folder, build, request, response) : answerFromBundle(build, request, response);
      answering?.catch((error: unknown) => answerInternalError(build.map, request, response, error));
    } catch (error) {
      answerInternalError(build.map, request, response, error);
    }
  });
  const answerTarget = options.static ? undefined : (method: string, target: string) => answererOf(builds.current()).answer(method, target);
  answerMalformedRequests(server, () => builds.current().map, answerTarget);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '127.0.0.1' || host === '[::1]' ? 'localhost' : host}:${address.port}`,
    server,
    close: async () => {
      builds.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
