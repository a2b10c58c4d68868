/**
 * autocannon in its own process, so that the parent can pin the load to one core and the server to
 * another. Arguments: the server's URL and a JSON file of request paths, cycled through by 50
 * connections, 3 s of warm-up (page cache, JIT) then 10 s measured. Prints one JSON line.
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
const options = { url: url!, connections: 50, requests: paths.map((p) => ({ method: 'GET' as const, path: p })) };
await autocannon({ ...options, duration: 3 });
const result = await autocannon({ ...options, duration: 10 });
const figures: LoadFigures = {
  requestsPerSecond: result.requests.average,
  statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count ?? 0])),
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
