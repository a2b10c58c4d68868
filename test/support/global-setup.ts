import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { writeEdgePrograms } from '../../src/hosts/program-bundler.ts';
import { CONFORMANCE_BASE_URL, ALL_SETS, setFolder } from './conformance.ts';
import { tempFolder } from './temp-folder.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each conformance set, built once for the whole run: set name -> built folder (read-only for tests). */
    builtSets: Record<string, string>;
    /** The edge programs bundled from the sources at the start of the run (program-bundler.ts): `<name>.js` in this folder. */
    edgePrograms: string;
  }
}

/**
 * Builds every conformance set once per test run, with the options in its `build-args` file, and hands
 * the folders to the test files (`inject('builtSets')`). Tests that serve a set read these folders; a
 * test that needs to change a build makes its own. Bundles the edge programs too, as `npm run compile`
 * does for the package, for the tests that hold what emit writes to what the sources make.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const temp = tempFolder('mirror-sets-');
  // Servers whose workers drop root (Apache as www-data) read these folders too.
  chmodSync(temp.path, 0o755);
  const builtSets: Record<string, string> = {};
  for (const set of ALL_SETS) {
    const out = path.join(temp.path, set);
    await build(resolveBuildOptions({ input: [path.join(setFolder(set), 'input.ndjson')], out, baseUrl: CONFORMANCE_BASE_URL, ...buildArgs(set) }));
    builtSets[set] = out;
  }
  project.provide('builtSets', builtSets);
  const programs = path.join(temp.path, 'edge-programs');
  writeEdgePrograms(programs);
  project.provide('edgePrograms', programs);
  return () => temp.remove();
}

/** A set's `build-args` file (`--filters a,b`), as build options. */
function buildArgs(set: string): { filters?: string } {
  const file = path.join(setFolder(set), 'build-args');
  if (!existsSync(file)) return {};
  const args = readFileSync(file, 'utf8').trim().split(/\s+/);
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) options[args[i]!.replace(/^--/, '')] = args[i + 1]!;
  return options;
}
