import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.ts';
import { resolveBuildOptions } from '../src/config.ts';
import { startPreview, type RunningPreview } from '../src/preview/preview-server.ts';
import { CONFORMANCE_BASE_URL, CONFORMANCE_SETS, checkCase, loadCases, setFolder } from './support/conformance.ts';
import { tempFolder } from './support/temp-folder.ts';

/**
 * Both conformance sets, every case, through the real preview: each set is built into a temporary
 * folder with the base URL the sets were made with, served on a random port, and every request of
 * its cases.jsonl is sent as is.
 */
describe.each(CONFORMANCE_SETS)('conformance set %s through the preview', (set) => {
  const temp = tempFolder();
  let preview: RunningPreview;

  beforeAll(async () => {
    const out = path.join(temp.path, 'out');
    const options = resolveBuildOptions({
      input: [path.join(setFolder(set), 'input.ndjson')],
      out,
      baseUrl: CONFORMANCE_BASE_URL,
    });
    await build(options);
    preview = await startPreview({ dir: out, port: 0 });
  }, 120_000);

  afterAll(async () => {
    await preview?.close();
    temp.remove();
  });

  const cases = loadCases(set);
  it.each(cases.map((item) => [item.id, item.method, item.target, item] as const))(
    'case %i: %s %s',
    async (_id, _method, _target, item) => {
      expect(await checkCase(preview.url, set, item)).toEqual([]);
    },
  );
});
