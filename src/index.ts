/**
 * The library: what each command does, as a function that takes the command's options (loose, as a
 * user writes them, with the command line's defaults) and resolves to what the command prints. It
 * fails with the error classes exported below, for `instanceof`; it never exits and never prints
 * (but for the preview's log of a request it could not answer). The command line is a thin layer
 * over these functions: src/cli.ts alone turns their outcomes into exit codes.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build as buildSite, type BuildSummary } from './build.ts';
import { loadMap } from './built-folder.ts';
import { checkSite, type CheckResult } from './check/check-site.ts';
import { DEFAULT_OUT, DEFAULT_PORT, resolveBuildOptions, wholeNumber, type BuildConfig } from './config.ts';
import { OptionsError } from './errors.ts';
import { HOSTS, findHost } from './hosts/hosts.ts';
import { copyHostFolders, parseListen, writeHostFiles } from './hosts/write-host-files.ts';
import { listRoute } from './plan/rewrite-map.ts';
import { startPreview, type RunningPreview } from './preview/preview-server.ts';
import { startWorkerdPreview } from './preview/workerd-preview.ts';
import { progressEvents, silentProgress, type Progress, type ProgressEvent } from './report/progress.ts';
import { resolveSyncOptions, type SyncConfig, type SyncOptions } from './sync/sync-options.ts';
import { sync as syncRecords, type SyncSummary } from './sync/sync.ts';
import type { RetryEvent } from './sync/upstream.ts';
import type { MovedNotice } from './sync/moved-upstream.ts';
import { isLocalBaseUrl } from './hosts/local-base-url.ts';

export { InputError, BuildBusyError, OptionsError, describeProblem, type InputProblem } from './errors.ts';
export { UpstreamError } from './sync/upstream.ts';
export { SyncError } from './sync/walk.ts';
export { terminalProgress, type Progress, type ProgressEvent, type Count, type ProgressStream } from './report/progress.ts';
export type { BuildConfig, BuildOptions } from './config.ts';
export type { BuildSummary } from './build.ts';
export type { CheckResult } from './check/check-site.ts';
export type { PreviewOptions, RunningPreview } from './preview/preview-server.ts';
export type { SyncConfig, SyncOptions } from './sync/sync-options.ts';
export type { SyncSummary } from './sync/sync.ts';
export type { RetryEvent } from './sync/upstream.ts';
export type { MovedNotice } from './sync/moved-upstream.ts';

/** How a long run reports its progress: a reporter (`terminalProgress()` for the command line's), or a listener of events. Silent without either. */
export interface ProgressConfig {
  progress?: Progress;
  onProgress?: (event: ProgressEvent) => void;
}

function reporter(config: ProgressConfig): Progress {
  if (config.progress !== undefined) return config.progress;
  return config.onProgress === undefined ? silentProgress : progressEvents(config.onProgress);
}

/** Builds the mirror from client records, as `lda-mirror build` does; resolves to its summary, warnings included. */
export async function build(config: BuildConfig = {}, run: ProgressConfig = {}): Promise<BuildSummary> {
  return buildSite(resolveBuildOptions(config), reporter(run));
}

/** The options of `lda-mirror preview`, loose. */
export interface PreviewConfig {
  /** The built folder (default: dist). */
  dir?: string;
  /** 0 for any free port (default: 3000). */
  port?: number | string;
  /** Default: 127.0.0.1. */
  host?: string;
  /** Answer as a host without code does, from the files and the rewrite map only (default: every request as the live service, contract section 9). */
  static?: boolean;
  /** `node` (default), or `workerd`: the Worker `emit cloudflare` writes, run in Cloudflare's runtime (miniflare). */
  runtime?: string;
}

/** Serves a built folder as `lda-mirror preview` does, until `close()`. */
export async function preview(config: PreviewConfig = {}): Promise<RunningPreview> {
  const runtime = config.runtime ?? 'node';
  if (runtime !== 'node' && runtime !== 'workerd') throw new OptionsError(`--runtime must be node or workerd, not "${runtime}"`);
  if (runtime === 'workerd') {
    if (config.static) throw new OptionsError('--static and --runtime workerd do not go together: the Worker answers every request as the live service');
    return startWorkerdPreview({ dir: config.dir || DEFAULT_OUT, port: wholeNumber('--port', config.port ?? DEFAULT_PORT, 0, 65535), host: config.host });
  }
  return startPreview({
    dir: config.dir || DEFAULT_OUT,
    port: wholeNumber('--port', config.port ?? DEFAULT_PORT, 0, 65535),
    host: config.host,
    static: config.static ?? false,
  });
}

/** The options of `lda-mirror check`, loose. */
export interface CheckConfig {
  /** The built folder (default: dist). */
  dir?: string;
  /** Problems listed at most (default: 50). */
  problemLimit?: number | string;
}

/** Verifies a built folder as `lda-mirror check` does. Problems found are in the result, not thrown. */
export async function check(config: CheckConfig = {}, run: ProgressConfig = {}): Promise<CheckResult & { dir: string }> {
  const dir = path.resolve(config.dir || DEFAULT_OUT);
  const problemLimit = wholeNumber('--problem-limit', config.problemLimit ?? 50, 1);
  const progress = reporter(run);
  progress.stage('check');
  try {
    const result = await checkSite(dir, {
      indexFile: path.join(tmpdir(), `mirror-check-${randomUUID()}.sqlite`),
      problemLimit,
      onProgress: (files, total) => progress.update({ done: files, total, unit: 'files' }),
    });
    return { ...result, dir };
  } finally {
    progress.end();
  }
}

/** The options of `lda-mirror emit <host>`. */
export interface EmitConfig {
  /** nginx, caddy, apache, cloudflare, cloudfront, serve, netlify, netlify-edge, vercel or vercel-edge. */
  host: string;
  /** The built folder whose rewrite map is translated (default: dist). */
  dir?: string;
  /** The file to write; the folder, for hosts that write several. */
  out: string;
  /** `port`, `address:port` or `[ipv6]:port`, for hosts that listen (nginx, Caddy, Apache). */
  listen?: string;
  /** Emit even when the build's base URL is a loopback one (localhost, 127.0.0.0/8, [::1], 0.0.0.0): for a local test only. */
  allowLocalBaseUrl?: boolean;
}

export interface EmitResult {
  host: string;
  /** The base URL baked into every link the host serves: the build's. */
  baseUrl: string;
  /** The files written, absolute. */
  files: string[];
  clients: number;
  /** Pages of each list (one ordering in one format). */
  pages: number;
}

/** Writes a host's configuration for a built folder, as `lda-mirror emit` does. */
export async function emit(config: EmitConfig): Promise<EmitResult> {
  const host = findHost(config.host);
  if (host === undefined) throw new OptionsError(`unknown host "${config.host}"; hosts: ${HOSTS.map((h) => h.name).join(', ')}`);
  if (!config.out) throw new OptionsError('--out is required: the file (or folder) to write');
  if (config.listen !== undefined && host.listen === undefined) throw new OptionsError(`--listen: ${host.name} does not listen on an address`);
  const listenText = config.listen ?? host.listen?.default;
  const listen = listenText === undefined ? undefined : parseListen(listenText);
  if (listenText !== undefined && listen === undefined) throw new OptionsError(`--listen: "${listenText}" is not a port, address:port or [ipv6]:port`);

  const dir = path.resolve(config.dir || DEFAULT_OUT);
  const map = await loadMap(dir);
  if (isLocalBaseUrl(map.baseUrl) && !config.allowLocalBaseUrl) {
    throw new OptionsError(
      `the build in ${dir} has the base URL ${map.baseUrl}, which leads every visitor's url, next and previous back to their own machine. ` +
        'Build again with --base-url <the address the mirror will be served at>, or pass --allow-local-base-url for a local test.',
    );
  }
  const target = { map, dir, listen };
  const out = path.resolve(config.out);
  const files = [...writeHostFiles(host.emit(target), out), ...copyHostFolders(host.copies?.(target) ?? [], out)];
  const list = listRoute(map);
  return { host: host.name, baseUrl: map.baseUrl, files, clients: list.count, pages: list.page.last };
}

export interface SyncRun extends ProgressConfig {
  /** Told the resolved options before the first request: what the sync is about to do. */
  onStart?: (options: SyncOptions) => void;
  /** Told about every wait that is not plain rate spacing (a 429, a 5xx, a dropped connection). */
  onRetry?: (event: RetryEvent) => void;
  /** Told once when the upstream announces its end or a new address (`Sunset`, `Link: <...>; rel="successor-version"`). */
  onMoved?: (notice: MovedNotice) => void;
}

/** Copies the upstream's client records into `<out>/clients.ndjson`, as `lda-mirror sync` does. */
export async function sync(config: SyncConfig, run: SyncRun = {}): Promise<SyncSummary & { out: string }> {
  const options: SyncOptions = { ...resolveSyncOptions(config), onRetry: run.onRetry, onMoved: run.onMoved };
  run.onStart?.(options);
  const progress = reporter(run);
  try {
    return { ...(await syncRecords(options, progress)), out: options.out };
  } finally {
    progress.end();
  }
}
