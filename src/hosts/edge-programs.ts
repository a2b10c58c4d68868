import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleEdgeProgram, type EdgeProgram } from './program-bundler.ts';

/**
 * The program an emitter writes for a host that runs code (program-bundler.ts says which). The
 * installed package carries them prebuilt by `npm run compile` in lib/hosts/programs/, and reads them
 * from there: it has neither esbuild nor the TypeScript sources. Run from the sources (a checkout,
 * through tsx), emit bundles them from those sources, once a process, so that what it writes is always
 * what the source makes now.
 */
const COMPILED = import.meta.url.endsWith('.js');
const PREBUILT = new URL('./programs/', import.meta.url);

const bundled = new Map<EdgeProgram, string>();

export function edgeProgram(name: EdgeProgram): string {
  if (COMPILED) {
    const file = fileURLToPath(new URL(`${name}.js`, PREBUILT));
    if (!existsSync(file)) throw new Error(`${file} is missing: the package was not compiled with npm run compile`);
    return readFileSync(file, 'utf8');
  }
  let program = bundled.get(name);
  if (program === undefined) bundled.set(name, (program = bundleEdgeProgram(name)));
  return program;
}
