import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { answerFromBundle } from './exact-answers.ts';
import { answerMalformedRequests } from './malformed-requests.ts';
import { watchBuild } from './served-build.ts';
import { answerFromFiles, answerInternalError } from './static-answers.ts';

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
  const builds = await watchBuild(dir);
  const server = createServer((request, response) => {
    const build = builds.current();
    try {
      const answering = options.static ? answerFromFiles(dir, build, request, response) : answerFromBundle(build, request, response);
      answering?.catch((error: unknown) => answerInternalError(build.map, request, response, error));
    } catch (error) {
      answerInternalError(build.map, request, response, error);
    }
  });
  answerMalformedRequests(server, () => builds.current().map);
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
