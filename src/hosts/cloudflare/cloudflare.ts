import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { RewriteMap } from '../../plan/rewrite-map.ts';
import { BUNDLE_FOLDER } from '../../bundle/bundle-manifest.ts';
import { edgeProgram } from '../edge-programs.ts';
import { generatedNotice, type HostAdapter } from '../host-adapter.ts';

/**
 * Cloudflare Workers with Static Assets: the build's query bundle (bundle/, a few thousand files for
 * the whole registry) is uploaded as the Worker's assets, and a Worker runs first on every request
 * (`run_worker_first`) with the answerer bundled into it (./runtime/worker.ts, bundled by
 * ../program-bundler.ts): every request answered as the live service answers it
 * (contract section 9). `npx wrangler deploy --config <out>/wrangler.jsonc` publishes both;
 * `npm run preview -- --runtime workerd` runs the same files locally. See notes.md beside this file.
 */
export const cloudflare: HostAdapter = {
  name: 'cloudflare',
  summary: 'a Cloudflare Worker answering every request from the query bundle, its static assets (npx wrangler deploy --config <out>/wrangler.jsonc)',
  files: ['worker.js', 'wrangler.jsonc'],
  profile: 'exact',
  gaps: {},
  emit: ({ map, dir }) => [
    { name: 'worker.js', text: workerCode(map) },
    { name: 'wrangler.jsonc', text: wranglerConfig(map, dir) },
  ],
};

/** The binding the Worker fetches files through; the Worker's code uses this name. */
export const ASSETS_BINDING = 'ASSETS';

/**
 * Static asset files a Worker version may hold (Cloudflare's Workers limits page: Free, then Paid
 * plans). wrangler deploy leaves the check to Cloudflare's API, which applies the account's plan.
 */
export const ASSET_FILE_LIMITS = { free: 20_000, paid: 100_000 };

/** A date the workerd of the tests' miniflare knows; Cloudflare accepts any date up to today. */
const COMPATIBILITY_DATE = '2025-07-18';

function workerCode(map: RewriteMap): string {
  return [generatedNotice(map, '//'), edgeProgram('worker')].join('\n');
}

function wranglerConfig(map: RewriteMap, dir: string): string {
  const config = {
    name: 'lda-clients-mirror',
    main: 'worker.js',
    compatibility_date: COMPATIBILITY_DATE,
    assets: {
      // The query bundle alone: the static tree's hundreds of thousands of files are for hosts without code.
      directory: path.join(dir, BUNDLE_FOLDER),
      binding: ASSETS_BINDING,
      // Every request goes to the Worker, which alone decides what answers (a file is never served by its own path).
      run_worker_first: true,
      html_handling: 'none',
      not_found_handling: 'none',
    },
  };
  return [
    generatedNotice(map, '//'),
    '// Deploy: npx wrangler deploy --config <this file>. worker.js beside it is the answerer.',
    `// ${assetCountNote(filesInFolder(path.join(dir, BUNDLE_FOLDER)))}`,
    JSON.stringify(config, null, 2),
    '',
  ].join('\n');
}

/** The upload against the plans' limits, so that a build too big for a plan is told at emit, not at deploy. */
export function assetCountNote(files: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const { free, paid } = ASSET_FILE_LIMITS;
  const verdict =
    files <= free
      ? 'it fits either plan'
      : files <= paid
        ? 'it needs Workers Paid'
        : 'it fits neither plan, so the deploy is refused (notes.md)';
  return `The query bundle holds ${count(files)} files, all uploaded as assets; a Worker version holds at most ${count(free)} (Workers Free) or ${count(paid)} (Workers Paid): ${verdict}.`;
}

/** Files under a folder, at any depth: wrangler uploads every one, and the limit counts them all. */
export function filesInFolder(dir: string): number {
  let files = 0;
  const folders = [dir];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(folder, entry.name));
      else files++;
    }
  }
  return files;
}
