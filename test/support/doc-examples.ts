import { readFileSync } from 'node:fs';
import path from 'node:path';
import { START_EXAMPLES } from '../../scripts/start-examples.ts';
import { REPO_ROOT } from './cli.ts';

/**
 * The requests the documentation shows a reader, to be sent to a build of the sample: every URL of
 * the mirror's API (`http://localhost:3000/api/v1/...`) in a fenced block of the README and docs/,
 * every `lobby::lob_list_clients(...)` call of an R block (as the request it sends), and the requests
 * `npm start` suggests. Each promises results unless a comment on its line says otherwise:
 * `# expect: empty` (a 200 with `count: 0`) or `# expect: <status>` (an error, such as `# expect: 400`).
 */
export interface DocExample {
  /** Where it is shown: `README.md:45`, `npm start`. */
  where: string;
  /** Path and query, as sent. */
  target: string;
  expect: { status: number; empty: boolean };
}

const SHOWN_BASE = 'http://localhost:3000';
const FENCED_BLOCK = /^[ \t]*(```|~~~)([^\n]*)\n([\s\S]*?)^[ \t]*\1[^\n]*$/gm;

export function docExamples(documents: string[]): DocExample[] {
  const shown = documents.flatMap((document) => examplesOf(document));
  const started = START_EXAMPLES.map((target) => ({ where: 'npm start', target, expect: { status: 200, empty: false } }));
  return [...shown, ...started];
}

function examplesOf(document: string): DocExample[] {
  const text = readFileSync(path.join(REPO_ROOT, document), 'utf8');
  const examples: DocExample[] = [];
  for (const block of text.matchAll(FENCED_BLOCK)) {
    const firstLine = text.slice(0, block.index).split('\n').length + 1;
    block[3]!.split('\n').forEach((line, offset) => {
      const where = `${document}:${firstLine + offset}`;
      const expect = expectationOf(line);
      for (const [url] of line.matchAll(/http:\/\/localhost:3000\/api\/v1\/[^\s'"`)]*/g)) {
        examples.push({ where, target: url.slice(SHOWN_BASE.length), expect });
      }
      const call = /lob_list_clients\(([^)]*)\)/.exec(line);
      if (call !== undefined && call !== null) examples.push({ where, target: `/api/v1/clients/${lobbyQuery(call[1]!)}`, expect });
    });
  }
  return examples;
}

/** `# expect: empty` or `# expect: 404` on the line; by default, a 200 with results. */
function expectationOf(line: string): DocExample['expect'] {
  const said = /#\s*expect:\s*(empty|\d{3})\b/.exec(line)?.[1];
  if (said === undefined) return { status: 200, empty: false };
  return said === 'empty' ? { status: 200, empty: true } : { status: Number(said), empty: false };
}

/** An R call's named arguments (`client_name = "bank", page_size = 10`) as the query string lobby sends. */
function lobbyQuery(args: string): string {
  const pairs = [...args.matchAll(/(\w+)\s*=\s*(?:"([^"]*)"|(\d+))/g)].map(([, name, text, number]): [string, string] => [name!, text ?? number!]);
  return pairs.length === 0 ? '' : `?${new URLSearchParams(pairs)}`;
}
