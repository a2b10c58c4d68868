import { existsSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_FOLDER, BUNDLE_MANIFEST } from '../../bundle/bundle-manifest.ts';
import { OptionsError } from '../../errors.ts';
import type { RewriteMap } from '../../plan/rewrite-map.ts';
import { filesInFolder } from '../cloudflare/cloudflare.ts';
import { edgeProgram } from '../edge-programs.ts';
import { generatedNotice, type HostAdapter } from '../host-adapter.ts';

/**
 * Vercel with Routing Middleware (formerly Edge Middleware): a project of its own, with no framework,
 * whose `middleware.js` runs the answerer (with the Fetch glue of ../runtime/fetch-handler.ts, which
 * the Netlify Edge Function runs too, bundled by ../program-bundler.ts) on every request but the bundle's own, and answers each as the
 * live service does (contract section 9). Vercel serves `public/`, which holds only the query bundle,
 * a copy of the built folder's `bundle/`: never the static tree, whose files a CLI deploy could not
 * take. `npx vercel deploy <out> --prod` publishes it. The rule-based `vercel` host stays for deploys
 * without code. See notes.md beside this file.
 */
export const vercelEdge: HostAdapter = {
  name: 'vercel-edge',
  summary: 'a Vercel project whose Routing Middleware answers every request from the query bundle (npx vercel deploy <out> --prod)',
  files: ['middleware.js', 'vercel.json', `public/${BUNDLE_FOLDER}`],
  profile: 'exact',
  gaps: {},
  emit: ({ map, dir }) => [
    { name: 'middleware.js', text: middlewareCode(map, bundleFiles(dir)) },
    { name: 'vercel.json', text: `${JSON.stringify(PROJECT_CONFIG, null, 2)}\n` },
  ],
  copies: ({ dir }) => [{ name: `public/${BUNDLE_FOLDER}`, from: path.join(dir, BUNDLE_FOLDER) }],
};

/**
 * The paths the middleware runs for: all but the bundle's, which Vercel serves from `public/` for the
 * middleware to read (were they matched, each read would run the middleware again). Vercel compiles a
 * matcher with path-to-regexp: this is one unnamed group holding a regular expression.
 */
export const MATCHER = `/((?!${BUNDLE_FOLDER}).*)`;

/**
 * vercel.json: no framework ("Other"), no build, and `public/` as the folder Vercel serves, whatever
 * the project's settings in the dashboard say.
 */
const PROJECT_CONFIG = { $schema: 'https://openapi.vercel.sh/vercel.json', framework: null, outputDirectory: 'public' };

/** Files a deployment made with the Vercel CLI may hold ("files should NOT have more than 15000 items"). */
export const CLI_FILE_LIMIT = 15_000;

function middlewareCode(map: RewriteMap, bundle: number): string {
  return [
    generatedNotice(map, '//'),
    '// Deploy: npx vercel deploy <this folder> --prod. Vercel serves public/, the query bundle, and runs this middleware for every other path.',
    `// ${fileCountNote(bundle)}`,
    // A literal, as Vercel reads `config` from the source without running it.
    `export const config = { matcher: [${JSON.stringify(MATCHER)}] };`,
    '',
    edgeProgram('fetch-handler'),
  ].join('\n');
}

/** The upload against the CLI's limit, so that a build too big for a deploy is told at emit, not at deploy. */
export function fileCountNote(bundle: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const files = bundle + 2;
  const verdict = files <= CLI_FILE_LIMIT ? 'it fits' : 'too many: the deploy is refused (notes.md)';
  return `The deploy uploads ${count(files)} files (middleware.js, vercel.json and the bundle's ${count(bundle)}); a CLI deploy takes at most ${count(CLI_FILE_LIMIT)}: ${verdict}.`;
}

/** The bundle's files, counted on disk; the build must have written one. */
function bundleFiles(dir: string): number {
  if (!existsSync(path.join(dir, BUNDLE_MANIFEST))) {
    throw new OptionsError(`${dir} holds no query bundle (${BUNDLE_MANIFEST}): build it again with this version`);
  }
  return filesInFolder(path.join(dir, BUNDLE_FOLDER));
}
