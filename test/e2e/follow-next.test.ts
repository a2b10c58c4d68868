import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { startPreview, type RunningPreview } from '../../src/preview/preview-server.ts';
import { CONFORMANCE_BASE_URL, setFolder } from '../support/conformance.ts';
import { sendRaw } from '../support/http.ts';
import { tempFolder } from '../support/temp-folder.ts';

interface InputClient {
  id: number;
  name: string;
  effective_date: string | null;
}

const input = readFileSync(path.join(setFolder('synthetic-1k'), 'input.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as InputClient);

/** Code point order, computed independently of the store: UTF-8 bytes compare in code point order. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const byIdDescending = (a: InputClient, b: InputClient) => b.id - a.id;

/** The contract's order of each `ordering` value (section 3), from the input records themselves. */
const expectedOrder: Record<string, number[]> = {
  '': [...input].sort((a, b) => a.id - b.id).map((c) => c.id),
  '-id': [...input].sort(byIdDescending).map((c) => c.id),
  '-name': [...input].sort((a, b) => -byCodePoint(a.name, b.name) || byIdDescending(a, b)).map((c) => c.id),
  '-effective_date': [...input]
    .sort((a, b) => {
      if (a.effective_date === null || b.effective_date === null) {
        return Number(b.effective_date === null) - Number(a.effective_date === null) || byIdDescending(a, b);
      }
      return -byCodePoint(a.effective_date, b.effective_date) || byIdDescending(a, b);
    })
    .map((c) => c.id),
};

describe('following next from the first page of the synthetic set', () => {
  const temp = tempFolder();
  let preview: RunningPreview;

  beforeAll(async () => {
    const out = path.join(temp.path, 'out');
    await build(resolveBuildOptions({ input: [path.join(setFolder('synthetic-1k'), 'input.ndjson')], out, baseUrl: CONFORMANCE_BASE_URL }));
    preview = await startPreview({ dir: out, port: 0 });
  }, 120_000);
  afterAll(async () => {
    await preview?.close();
    temp.remove();
  });

  const cases = ['', 'api', 'json'].flatMap((format) => Object.keys(expectedOrder).map((ordering) => [format, ordering] as const));

  it.each(cases)('format %j, ordering %j reaches every record once, in the contract order', async (format, ordering) => {
    const query = new URLSearchParams();
    if (format) query.set('format', format);
    if (ordering) query.set('ordering', ordering);
    let link: string | null = `${CONFORMANCE_BASE_URL}/api/v1/clients/${query.size > 0 ? `?${query}` : ''}`;
    let previousLink: string | null = null;
    const seen: number[] = [];
    let pages = 0;

    while (link !== null) {
      expect(link.startsWith(CONFORMANCE_BASE_URL)).toBe(true);
      const response = await sendRaw(preview.url, 'GET', link.slice(CONFORMANCE_BASE_URL.length));
      expect(response.status).toBe(200);
      const page = JSON.parse(response.body.toString('utf8')) as {
        count: number;
        next: string | null;
        previous: string | null;
        results: { id: number; url: string }[];
      };
      expect(page.count).toBe(input.length);
      expect(page.previous).toBe(previousLink);
      for (const client of page.results) {
        seen.push(client.id);
        expect(client.url).toBe(`${CONFORMANCE_BASE_URL}/api/v1/clients/${client.id}/${format ? `?format=${format}` : ''}`);
      }
      previousLink = link;
      link = page.next;
      pages++;
      expect(pages).toBeLessThanOrEqual(40);
    }

    expect(new Set(seen).size).toBe(input.length);
    expect(seen).toEqual(expectedOrder[ordering]);
  });
});
