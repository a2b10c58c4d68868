import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Exchange, Probe } from './host-behaviours.ts';
import type { RealServer } from './real-servers.ts';

/**
 * Puts a host that cannot run here (its emitted rules evaluated in a test, or its handler called with
 * the platform's event shape) behind a loopback HTTP server, so the conformance checker can send it
 * every case exactly as it sends them to the preview and to real servers.
 */
export async function serveExchanges(send: (probe: Probe) => Promise<Exchange>): Promise<RealServer> {
  const server = createServer((request, response) => {
    send({ method: request.method ?? 'GET', target: request.url ?? '/' }).then(
      (exchange) => {
        for (const [name, value] of Object.entries(exchange.headers)) if (value !== undefined) response.setHeader(name, value);
        response.writeHead(exchange.status);
        response.end(request.method === 'HEAD' ? undefined : exchange.body);
      },
      (error: Error) => {
        response.writeHead(599);
        response.end(`evaluator failed: ${error.stack}`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
