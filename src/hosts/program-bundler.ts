import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import type * as TypeScript from 'typescript';
import { warmUpBundle } from '../warm-up/warm-up-bundle.ts';

/**
 * The programs that the hosts running code emit, bundled by esbuild from their run-time entries (each
 * host's runtime/ folder) with the answerer or the router they import, so that no host runs a second,
 * hand-copied answerer. Made when needed, never committed: `npm run compile` writes them into the
 * package (lib/hosts/programs/), the tests' global setup into a temporary folder, and `emit` from the
 * sources bundles them itself (edge-programs.ts). esbuild and TypeScript are devDependencies: they are
 * loaded only here, only when a program is bundled, which an installed package never does.
 *
 * - worker: the Cloudflare Worker, an ES module (`export default { fetch }`) for workerd.
 * - fetch-handler: `export default (request) => Response`, for Deno (Netlify Edge Functions) and
 *   Vercel's edge runtime alike; their emitters put each platform's `config` literal in front.
 * - cloudfront-function: runtime cloudfront-js-2.0 documents ES 5.1 plus a few later features, and no
 *   `Map`, `URLSearchParams` or `Object.hasOwn`. The router's bundle gets those from
 *   cloudfront/runtime/es5-globals.ts and TypeScript lowers its syntax to ES5; the async handler
 *   (cloudfront/runtime/handler.ts) stays as written. Minified, as CloudFront allows 10 KB of code.
 */
export const EDGE_PROGRAMS = ['worker', 'fetch-handler', 'cloudfront-function'] as const;
export type EdgeProgram = (typeof EDGE_PROGRAMS)[number];

const HOSTS_DIR = fileURLToPath(new URL('./', import.meta.url));
/** Paths in the bundles' comments are relative to the repository, wherever it lies. */
const REPO_ROOT = path.resolve(HOSTS_DIR, '../..');
const entry = (file: string) => path.join(HOSTS_DIR, file);

/** What the router uses beyond the CloudFront runtime, and the stand-in (es5-globals.ts) for each. */
const ES5_STAND_INS = { Map: 'QueryValues', URLSearchParams: 'QueryPairs', 'Object.hasOwn': 'hasOwn' };

/** The global the router's bundle declares (router-entry.ts sets it, handler.ts calls it). */
const ROUTE_GLOBAL = 'LDA_ROUTE';

const load = createRequire(import.meta.url);
const esbuild = () => load('esbuild') as typeof Esbuild;
const typescript = () => load('typescript') as typeof TypeScript;

function bundle(file: string, options: Esbuild.BuildOptions): string {
  const result = esbuild().buildSync({
    entryPoints: [entry(file)],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    write: false,
    platform: 'neutral',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    ...options,
  });
  return result.outputFiles![0]!.text;
}

let warmUpText: string | undefined;

/**
 * What the programs that run the answerer carry: the warm-up bundle (warm-up/warm-up-bundle.ts), as the global
 * constant `LDA_WARM_UP` that answer/warm-up.ts reads (esbuild's define puts the value in its place). Also for
 * the bench, whose Worker must start as the deployed one does.
 */
export function answererDefines(): Record<string, string> {
  // Made once a process: the Worker and the Fetch handler carry the same one.
  warmUpText ??= JSON.stringify(warmUpBundle());
  return { LDA_WARM_UP: warmUpText };
}

/** The program named, bundled from the sources. */
export function bundleEdgeProgram(name: EdgeProgram): string {
  if (name === 'worker') return bundle('cloudflare/runtime/worker.ts', { format: 'esm', target: 'es2022', define: answererDefines() });
  if (name === 'fetch-handler') return bundle('runtime/fetch-handler.ts', { format: 'esm', target: 'es2022', define: answererDefines() });
  return cloudfrontFunctionPrograms().minified;
}

/** The CloudFront Function readable (what the tests compare the minified one with) and minified (what is emitted). */
export function cloudfrontFunctionPrograms(): { readable: string; minified: string } {
  const modern = bundle('cloudfront/runtime/router-entry.ts', {
    format: 'iife',
    target: 'es2022',
    inject: [entry('cloudfront/runtime/es5-globals.ts')],
    define: ES5_STAND_INS,
  });
  const ts = typescript();
  const router = `var ${ROUTE_GLOBAL};\n${
    ts.transpileModule(modern, {
      compilerOptions: { target: ts.ScriptTarget.ES5, module: ts.ModuleKind.None, alwaysStrict: false, newLine: ts.NewLineKind.LineFeed },
      reportDiagnostics: false,
    }).outputText
  }`;
  const handler = readFileSync(entry('cloudfront/runtime/handler.ts'), 'utf8');
  // Apart, so that the router keeps to ES5 and only the handler uses `async`.
  const transform = (code: string, target: string, minify: boolean) =>
    esbuild().transformSync(code, { loader: 'ts', target, minify, legalComments: 'none', charset: 'utf8' }).code;
  return {
    readable: router + transform(handler, 'es2017', false),
    minified: transform(router, 'es5', true) + transform(handler, 'es2017', true),
  };
}

/** Every program, bundled into `folder` as `<name>.js` (npm run compile, the tests' setup). */
export function writeEdgePrograms(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of EDGE_PROGRAMS) writeFileSync(path.join(folder, `${name}.js`), bundleEdgeProgram(name));
}
