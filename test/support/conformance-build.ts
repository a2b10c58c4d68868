import path from 'node:path';
import { build } from '../../src/build.ts';
import { loadMap } from '../../src/built-folder.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import type { RewriteMap } from '../../src/plan/rewrite-map.ts';
import { CONFORMANCE_BASE_URL, setFolder } from './conformance.ts';

/** Builds a conformance set into `out` with the base URL the set was made with; returns its map. */
export async function buildConformanceSet(set: string, out: string): Promise<RewriteMap> {
  await build(resolveBuildOptions({ input: [path.join(setFolder(set), 'input.ndjson')], out, baseUrl: CONFORMANCE_BASE_URL }));
  return loadMap(out);
}
