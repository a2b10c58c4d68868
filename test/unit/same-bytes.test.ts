import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createAnswerer } from '../../src/answer/answerer.ts';
import { ALL_SETS } from '../support/conformance.ts';

/**
 * One renderer, two ways of answering (contract section 9, last point): every page and record file a
 * build writes for hosts without code is, byte for byte, what the answerer composes from the query
 * bundle for the same request, so the two never disagree. Checked over every file of every
 * conformance set's build.
 */
describe.each(ALL_SETS)('the answerer over the query bundle of %s', (set) => {
  it('answers every precomputed page and record with the file\'s bytes', async () => {
    const dir = inject('builtSets')[set]!;
    const answerer = createAnswerer(async (file) => readFileSync(path.join(dir, 'bundle', file)));
    const files = readdirSync(path.join(dir, 'api'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));
    expect(files.length).toBeGreaterThan(1000);
    const differing: string[] = [];
    for (const file of files) {
      const target = requestFor(`api/${file}`);
      const reply = await answerer.answer('GET', target);
      if (reply.status !== 200 || !Buffer.from(reply.body).equals(readFileSync(path.join(dir, 'api', file)))) differing.push(`${file} (${target}: ${reply.status})`);
    }
    expect(differing.slice(0, 10)).toEqual([]);
  }, 120_000);
});

/** The request a file of the static tree answers (docs/output-tree.md): its folders name the parameters. */
function requestFor(file: string): string {
  const parts = file.split('/');
  const name = parts.pop()!;
  const page = name === 'index.json' ? undefined : /^page=([0-9]+)\.json$/.exec(name)?.[1];
  const record = /^(clients|registrants)$/.test(parts[2]!) && /^[0-9]+$/.test(parts[3] ?? '');
  const query = parts.slice(record ? 4 : 3).map((folder) => folder.split('='));
  if (record && name !== 'index.json') query.push(['format', name.replace(/^format=|\.json$/g, '')]);
  if (page !== undefined) query.push(['page', page]);
  const search = query.map(([key, value]) => `${key}=${encodeURIComponent(value!)}`).join('&');
  return `/${parts.slice(0, record ? 4 : 3).join('/')}/${search === '' ? '' : `?${search}`}`;
}
