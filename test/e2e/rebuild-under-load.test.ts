import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../support/cli.ts';
import { startPreview, type RunningPreview } from '../../src/preview/preview-server.ts';
import { startWorkerdPreview } from '../../src/preview/workerd-preview.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * A rebuild while the preview answers a stream of requests (issue 36): the preview, in Node and in
 * workerd, keeps answering from the build it opened until it has moved to the new one, with no 5xx
 * and no dropped connection, and answers from the new build within 5 s of the switch. Two rebuilds:
 * the second switch deletes the first build's folder, which no reader may still need.
 */
const CLIENTS = 600;
const LOAD = 16;

describe.each(['node', 'workerd'] as const)('a rebuild under load, the preview in %s', (runtime) => {
  const temp = tempFolder();
  const input = path.join(temp.path, 'in.ndjson');
  const out = path.join(temp.path, 'out');
  let preview: RunningPreview;
  const records = (extra: number[]) => ndjson([...Array.from({ length: CLIENTS }, (_, i) => i + 1), ...extra].map((id) => clientRecord(id, { name: `CLIENT ${id} BANK` })));
  // The command line, as an operator runs it beside a running preview: a process of its own.
  const rebuild = async (extra: number[]) => {
    writeFileSync(input, records(extra));
    const result = await runCliAsync(['build', '--input', input, '--out', out, '--base-url', 'http://mirror.test']);
    expect(result.status, result.stderr).toBe(0);
  };

  beforeAll(async () => {
    await rebuild([]);
    preview = runtime === 'node' ? await startPreview({ dir: out, port: 0 }) : await startWorkerdPreview({ dir: out, port: 0 });
  }, 120_000);
  afterAll(async () => {
    await preview?.close();
    temp.remove();
  });

  it('answers every request, from the old build until the new one, which answers within 5 s of each switch', async () => {
    const statuses = new Map<number, number>();
    const dropped: string[] = [];
    let running = true;
    const targets = (n: number) => [`/api/v1/clients/${1 + (n % CLIENTS)}/`, `/api/v1/clients/?client_name=bank&page=${1 + (n % 20)}`, '/api/v1/clients/?ordering=-name&page=3'][n % 3]!;
    const ask = async (target: string): Promise<number> => {
      try {
        const response = await fetch(`${preview.url}${target}`);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        return response.status;
      } catch (error) {
        dropped.push(`${target}: ${(error as Error).message} ${String((error as Error).cause ?? '')}`);
        return 0;
      }
    };
    const asker = async (id: number) => {
      for (let n = id; running; n += LOAD) await ask(targets(n));
    };
    const askers = Array.from({ length: LOAD }, (_, id) => asker(id));
    const secondsToNew: number[] = [];
    // Built before: the new record's 404 is no error.
    for (const extra of [[CLIENTS + 1], [CLIENTS + 1, CLIENTS + 2]]) {
      await rebuild(extra);
      const switched = performance.now();
      // A record only the new build has.
      while ((await ask(`/api/v1/clients/${extra.at(-1)}/`)) !== 200) {
        expect(performance.now() - switched, 'the new build answering').toBeLessThan(5_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      secondsToNew.push((performance.now() - switched) / 1000);
      // Requests go on a while on the new build.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    running = false;
    await Promise.all(askers);
    const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    console.log(`${runtime}: ${answered} answers ${JSON.stringify(Object.fromEntries(statuses))}, ${dropped.length} dropped, new build answering after ${secondsToNew.map((s) => s.toFixed(2)).join(' s, ')} s`);
    expect(dropped).toEqual([]);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(answered).toBeGreaterThan(100);
  }, 180_000);
});
