import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadMap } from '../built-folder.ts';
import { cloudflare } from '../hosts/cloudflare/cloudflare.ts';
import type { RunningPreview } from './preview-server.ts';

/**
 * The preview in workerd, Cloudflare's runtime (`preview --runtime workerd`): the Worker that
 * `emit cloudflare` writes for the build, run by miniflare with the settings of the wrangler.jsonc it
 * writes beside it, mapped to miniflare's options as `wrangler dev` maps them (`run_worker_first` is
 * the asset router's `invoke_user_worker_ahead_of_assets`), its assets served by Cloudflare's own
 * asset worker. So a deploy can be checked before it is made, from the same emitter.
 *
 * miniflare is an optional peer dependency (a development one in a checkout): it brings workerd, about
 * 100 MB, which only this preview needs. An installed copy without it says the command that adds it.
 */
export interface WranglerConfig {
  main: string;
  compatibility_date: string;
  assets: { directory: string; binding: string; run_worker_first: boolean; html_handling: string; not_found_handling: string };
}

export async function startWorkerdPreview(options: { dir: string; port: number; host?: string }): Promise<RunningPreview & { folder: string }> {
  const dir = realpathSync(path.resolve(options.dir));
  const map = await loadMap(dir);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'lda-workerd-'));
  for (const file of cloudflare.emit({ map, dir })) writeFileSync(path.join(folder, file.name), file.text);
  // emit copies the bundle beside wrangler.jsonc; the preview links it there instead, reading the build in place.
  for (const { name, from } of cloudflare.copies!({ map, dir })) symlinkSync(from, path.resolve(folder, name), 'dir');
  const config = readWranglerConfig(path.join(folder, 'wrangler.jsonc'));
  let miniflare: typeof import('miniflare');
  try {
    miniflare = await import('miniflare');
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(miniflareMissing());
  }
  const mf = new miniflare.Miniflare({
    modules: true,
    modulesRoot: folder,
    scriptPath: path.join(folder, config.main),
    compatibilityDate: config.compatibility_date,
    host: options.host ?? '127.0.0.1',
    port: options.port,
    assets: {
      directory: realpathSync(path.resolve(folder, config.assets.directory)),
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
      assetConfig: { html_handling: config.assets.html_handling as 'none', not_found_handling: config.assets.not_found_handling as 'none' },
    },
  });
  try {
    const url = (await mf.ready).toString().replace(/\/$/, '');
    return {
      url,
      folder,
      close: async () => {
        await mf.dispose();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    // dispose() answers the failed start's error again: the one caught here is what to report.
    await mf.dispose().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** wrangler.jsonc as emitted: JSON after `//` comment lines. */
export function readWranglerConfig(file: string): WranglerConfig {
  const text = readFileSync(file, 'utf8');
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !line.startsWith('//'))
      .join('\n'),
  ) as WranglerConfig;
}

/** What to run when miniflare is missing, with the range package.json asks for (one folder up from src/ and lib/ alike). */
export function miniflareMissing(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies?: Record<string, string> };
  const range = manifest.peerDependencies?.miniflare ?? 'latest';
  return `preview --runtime workerd runs the Worker through the npm package miniflare, which is not installed: run npm install miniflare@${range} in the folder where lda-clients-mirror is installed (with npx, install both there: npm install lda-clients-mirror-<version>.tgz miniflare@${range})`;
}
