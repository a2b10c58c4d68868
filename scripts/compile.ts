/**
 * `npm run compile`, and `npm pack` before it packs (prepack): src/ as the JavaScript the package
 * ships, in lib/. tsc with tsconfig.build.json (declarations beside), then the files the code reads
 * beside itself at run time, then the edge programs bundled by esbuild into lib/hosts/programs/ (an
 * installed package has no esbuild: its emit reads them there, src/hosts/edge-programs.ts), then the
 * command line made executable.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { writeEdgePrograms } from '../src/hosts/program-bundler.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const LIB = path.join(ROOT, 'lib');

/**
 * What src/ reads at run time relative to its own module (`new URL('./...', import.meta.url)`) and
 * tsc does not emit: the filter choice lists of src/choices/. (start-worker.mjs is for the TypeScript
 * sources only: compiled, a worker thread's .js module starts directly, worker-thread.ts.)
 */
const RUNTIME_FILES = ['choices/*.json'];

// From nothing, so that a module removed from src/ leaves no stale copy behind in the package.
rmSync(LIB, { recursive: true, force: true });
execFileSync(process.execPath, [fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
for (const file of fg.sync(RUNTIME_FILES, { cwd: SRC })) {
  mkdirSync(path.dirname(path.join(LIB, file)), { recursive: true });
  copyFileSync(path.join(SRC, file), path.join(LIB, file));
}
writeEdgePrograms(path.join(LIB, 'hosts/programs'));
chmodSync(path.join(LIB, 'cli.js'), 0o755);
