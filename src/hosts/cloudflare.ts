import { errorAnswers, type RewriteMap } from '../plan/rewrite-map.ts';
import { jsonText } from '../render/json-text.ts';
import { generatedNotice, type HostAdapter } from './host-adapter.ts';
import { CLOUDFLARE_WORKER, MAP_GLOBAL } from './host-programs.generated.ts';

/**
 * Cloudflare Workers with Static Assets: the built folder is uploaded as the Worker's assets, and a
 * Worker runs first on every request (`run_worker_first`) with the router, src/routing/
 * resolve-request.ts, bundled into it (scripts/generate-host-programs.ts). It answers errors and
 * redirects itself and fetches pages and records through the `ASSETS` binding, every answer with the
 * map's headers. `npx wrangler deploy --config <out>/wrangler.jsonc` publishes both.
 */
export const cloudflare: HostAdapter = {
  name: 'cloudflare',
  summary: 'a Cloudflare Worker with Static Assets (npx wrangler deploy --config <out>/wrangler.jsonc)',
  files: ['worker.js', 'wrangler.jsonc'],
  gaps: {},
  emit: ({ map, dir }) => [
    { name: 'worker.js', text: workerCode(map) },
    { name: 'wrangler.jsonc', text: wranglerConfig(map, dir) },
  ],
};

/** The binding the Worker fetches files through; the Worker's code uses this name. */
export const ASSETS_BINDING = 'ASSETS';

/** Static asset files a Worker version may hold (Cloudflare's limits page: Free, then Paid plans). */
export const ASSET_FILE_LIMITS = { free: 20_000, paid: 100_000 };

/** A date the workerd that tests run (miniflare 3) knows; Cloudflare accepts any date up to today. */
const COMPATIBILITY_DATE = '2025-07-18';

function workerCode(map: RewriteMap): string {
  return [generatedNotice(map, '//'), `const ${MAP_GLOBAL} = ${jsonText(map)};`, '', CLOUDFLARE_WORKER].join('\n');
}

function wranglerConfig(map: RewriteMap, dir: string): string {
  const files = filesInBuild(map);
  const config = {
    name: 'lda-clients-mirror',
    main: 'worker.js',
    compatibility_date: COMPATIBILITY_DATE,
    assets: {
      directory: dir,
      binding: ASSETS_BINDING,
      // Every request goes to the Worker, which alone decides what answers (a file is never served by its own path).
      run_worker_first: true,
      html_handling: 'none',
      not_found_handling: 'none',
    },
  };
  return [
    generatedNotice(map, '//'),
    '// Deploy: npx wrangler deploy --config <this file>. worker.js beside it holds the map and the router.',
    `// The build has about ${files.toLocaleString('en-US')} files; a Worker version holds at most ${ASSET_FILE_LIMITS.free.toLocaleString('en-US')} (Workers Free) or ${ASSET_FILE_LIMITS.paid.toLocaleString('en-US')} (Workers Paid).`,
    JSON.stringify(config, null, 2),
    '',
  ].join('\n');
}

/** Files the build wrote (pages, records, error bodies), from the map's counts. */
export function filesInBuild(map: RewriteMap): number {
  const list = map.list;
  const pages = Object.keys(list.format).length * Object.keys(list.ordering).length * list.page.last;
  const records = map.records.reduce((sum, record) => sum + Object.keys(record.format).length * record.count, 0);
  return pages + records + errorAnswers(map).length;
}
