/**
 * A series of nights (`--phases nights`): a full build, then one rebuild a night, each night's change
 * (nightly-change.ts, night n) read with every night's before it, as the nightly job rebuilds over its
 * last output. Each night says what a deploy uploads to a host that runs the answerer: the query
 * bundle's files written anew and their share of its bytes (the target is at most 5 % every night),
 * and how much the registrant overlay weighs after it (render/registrant-overlay.ts): the night it
 * would pass its bound, the chunks are written again (the fold), and that night shows it.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BuildSummary } from '../../src/build.ts';
import type { ChildStats } from './child-stats.ts';
import { writeNightlyChange } from './nightly-change.ts';

export interface Night {
  night: number;
  /** The query bundle's files and bytes, and those written anew by this night's rebuild. */
  bundle: BuildSummary['bundle'];
  /** The registrant overlay's bytes after the night (0: none, as after a fold). */
  overlayBytes: number;
}

export interface NightsOptions {
  nights: number;
  /** The records file of the full build the series starts from. */
  baseFile: string;
  /** The folder of the series' input (the base file linked, and a file a night), made anew. */
  input: string;
  out: string;
  /** Runs one build (the bench's build child) over an input folder into `out`; its time is not reported, so it need not wait for a rested disk. */
  build: (input: string, out: string) => ChildStats;
  log: (text: string) => void;
}

export async function measureNights(options: NightsOptions): Promise<Night[]> {
  rmSync(options.input, { recursive: true, force: true });
  mkdirSync(options.input, { recursive: true });
  linkSync(options.baseFile, path.join(options.input, 'clients.ndjson'));
  options.log(`nights: full build of the series' first day`);
  options.build(options.input, options.out);
  const nights: Night[] = [];
  for (let night = 1; night <= options.nights; night++) {
    await writeNightlyChange(options.baseFile, path.join(options.input, `night-${String(night).padStart(2, '0')}.ndjson`), night);
    const stats = options.build(options.input, options.out);
    const { bundle } = stats.result as BuildSummary;
    const done: Night = { night, bundle, overlayBytes: overlayBytes(options.out) };
    nights.push(done);
    options.log(`nights: night ${night}, ${shareOf(done).toFixed(1)}% of the bundle written, overlay ${(done.overlayBytes / 1024).toFixed(1)} KiB`);
  }
  return nights;
}

/** The share of the query bundle's bytes a night wrote anew, in percent. */
function shareOf(night: Night): number {
  return (night.bundle.bytesWritten / night.bundle.bytes) * 100;
}

export function nightsRows(nights: readonly Night[]): [string, string][] {
  const worst = Math.max(...nights.map(shareOf));
  const mean = nights.reduce((sum, night) => sum + shareOf(night), 0) / nights.length;
  return [
    [
      `nights in a row (${nights.length}, each night's change read with those before it): query bundle written each night, share of its bytes (target <= 5% every night)`,
      `${nights.map((night) => `${shareOf(night).toFixed(1)}%`).join(', ')}; worst ${worst.toFixed(1)}%, mean ${mean.toFixed(1)}% (${worst <= 5 ? 'met' : 'missed'})`,
    ],
    ['nights in a row: files written each night', nights.map((night) => `${night.bundle.written}`).join(', ')],
    ['nights in a row: the registrant overlay after each night (KiB; 0 after a fold)', nights.map((night) => (night.overlayBytes / 1024).toFixed(1)).join(', ')],
  ];
}

/** The overlay's bytes in a built folder's bundle, from its manifest; 0 when it has none. */
function overlayBytes(out: string): number {
  const manifest = JSON.parse(readFileSync(path.join(out, 'bundle', 'manifest.json'), 'utf8')) as { overlay?: { file: string } };
  const file = manifest.overlay === undefined ? undefined : path.join(out, 'bundle', manifest.overlay.file);
  return file !== undefined && existsSync(file) ? statSync(file).size : 0;
}
