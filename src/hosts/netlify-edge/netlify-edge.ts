import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUNDLE_FOLDER, BUNDLE_MANIFEST } from '../../bundle/bundle-manifest.ts';
import { OptionsError } from '../../errors.ts';
import type { RewriteMap } from '../../plan/rewrite-map.ts';
import { edgeProgram } from '../edge-programs.ts';
import { generatedNotice, type HostAdapter } from '../host-adapter.ts';
import { folderCounts, type FolderCounts } from './folder-counts.ts';

/** The folder Netlify publishes, inside `--out`: the query bundle alone. */
export const PUBLISH_FOLDER = 'public';

/** In Netlify's default folder of edge functions; the file's name is the function's. */
export const EDGE_FUNCTION_FILE = 'netlify/edge-functions/lda-mirror.js';

/**
 * Where the function runs (Netlify's inline `config`, URLPattern paths): every path, so that a path
 * outside the API gets the answerer's 404, except the bundle's files, which the function fetches
 * from the site itself and which must not come back into it.
 */
export const EDGE_FUNCTION_CONFIG = { path: '/*', excludedPath: `/${BUNDLE_FOLDER}*` };

/** Netlify's limits (its deploy limits and its Edge Functions limits page), told at emit rather than at deploy. */
export const NETLIFY_LIMITS = { filesInOneFolder: 54_000, functionGzipBytes: 20_000_000 };

/**
 * Netlify Edge Functions: a site of its own, written into `--out`, whose one edge function runs the
 * answerer (src/answer/answerer.ts, with the Fetch glue of ../runtime/fetch-handler.ts) on every request, as the live service answers it (contract
 * section 9). The published folder holds only the query bundle, copied from the built folder, which
 * the function reads over HTTP from the site itself; never the static tree, whose 872,000 files
 * Netlify would not take. `npx netlify-cli deploy --dir public --prod`, run in `--out`, publishes both.
 * The rule-based `netlify` host stays for deploys without edge code. See notes.md beside this file.
 */
export const netlifyEdge: HostAdapter = {
  name: 'netlify-edge',
  summary: 'a Netlify site whose Edge Function answers every request from the query bundle (in <out>: npx netlify-cli deploy --dir public --prod)',
  files: ['netlify.toml', EDGE_FUNCTION_FILE],
  copies: ({ dir }) => [{ name: `${PUBLISH_FOLDER}/${BUNDLE_FOLDER}`, from: path.join(dir, BUNDLE_FOLDER) }],
  profile: 'exact',
  gaps: {},
  emit: ({ map, dir }) => {
    if (!existsSync(path.join(dir, BUNDLE_MANIFEST))) throw new OptionsError(`${dir} holds no query bundle (${BUNDLE_MANIFEST}): build it again with this version`);
    const code = functionCode(map);
    return [
      { name: 'netlify.toml', text: netlifyConfig(map, code, folderCounts(path.join(dir, BUNDLE_FOLDER))) },
      { name: EDGE_FUNCTION_FILE, text: code },
    ];
  },
};

function functionCode(map: RewriteMap): string {
  return [
    generatedNotice(map, '//'),
    // A literal, as Netlify reads `config` from the source when it bundles the function.
    `export const config = ${JSON.stringify(EDGE_FUNCTION_CONFIG)};`,
    '',
    edgeProgram('fetch-handler'),
  ].join('\n');
}

function netlifyConfig(map: RewriteMap, code: string, bundle: FolderCounts): string {
  return [
    generatedNotice(map, '#'),
    `# Deploy: in this folder, npx netlify-cli deploy --dir ${PUBLISH_FOLDER} --prod. The edge function declares its own paths.`,
    `# ${limitsNote(bundle, gzipSync(code).length)}`,
    '[build]',
    `  publish = "${PUBLISH_FOLDER}"`,
    `  edge_functions = "${path.posix.dirname(EDGE_FUNCTION_FILE)}"`,
    '',
  ].join('\n');
}

/** The site against Netlify's limits: the files it publishes, and the function's compressed size. */
export function limitsNote(bundle: FolderCounts, functionGzipBytes: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const fits = bundle.mostInOneFolder <= NETLIFY_LIMITS.filesInOneFolder && functionGzipBytes <= NETLIFY_LIMITS.functionGzipBytes;
  return [
    `The published folder holds ${count(bundle.files)} files, at most ${count(bundle.mostInOneFolder)} in one folder (Netlify takes ${count(NETLIFY_LIMITS.filesInOneFolder)});`,
    `the edge function is ${count(functionGzipBytes)} bytes gzipped (Netlify takes 20 MB compressed):`,
    fits ? 'it fits.' : 'it does not fit, so Netlify refuses the deploy (notes.md).',
  ].join(' ');
}
