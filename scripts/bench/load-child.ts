/**
 * autocannon in its own process, so that the parent can pin the load to one core and the server to
 * another. Arguments: the server's URL and a JSON file of request paths, cycled through by 50
 * connections, 3 s of warm-up (page cache, JIT) then 10 s measured. Prints one JSON line.
 *
 * Each connection starts at a place of its own in the paths (connection i at i/50 of them): autocannon
 * cycles each connection through the paths from the first, so without it the 50 connections would ask
 * the same path at the same moment, and 13 s at a few thousand requests a second would ask only the
 * first hundred paths of the list.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadFigures {
  requestsPerSecond: number;
  /** Answers by status, of the measured 10 s: all of them should be 200. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
}

const [url, pathsFile] = process.argv.slice(2);
const paths = JSON.parse(readFileSync(pathsFile!, 'utf8')) as string[];
const CONNECTIONS = 50;
const requests = paths.map((p) => ({ method: 'GET' as const, path: p }));
let started = 0;
const options = {
  url: url!,
  connections: CONNECTIONS,
  requests,
  setupClient: (client: { setRequests(requests: { method: 'GET'; path: string }[]): void }) => {
    const start = Math.floor(((started++ % CONNECTIONS) * requests.length) / CONNECTIONS);
    client.setRequests([...requests.slice(start), ...requests.slice(0, start)]);
  },
};
await autocannon({ ...options, duration: 3 });
const result = await autocannon({ ...options, duration: 10 });
const figures: LoadFigures = {
  requestsPerSecond: result.requests.average,
  statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0])),
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
