import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_FOLDER, BUNDLE_MANIFEST, type BundleManifest } from './bundle/bundle-manifest.ts';
import { checkBundle } from './bundle/bundle-check.ts';
import type { ReadFile } from './bundle/query-bundle.ts';
import { OptionsError } from './errors.ts';
import { MAP_FILE, MAP_FORMAT, type RewriteMap } from './plan/rewrite-map.ts';

/** The rewrite map of a built folder, for the commands that read one (preview, check). */
export async function loadMap(dir: string): Promise<RewriteMap> {
  const file = path.join(dir, MAP_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new OptionsError(`${dir} holds no ${MAP_FILE}: build it first (npm run build -- --out ${dir} ...)`);
  }
  const map = JSON.parse(text) as RewriteMap;
  if (map.format !== MAP_FORMAT) {
    throw new OptionsError(`${file} is in format "${map.format}", this program reads "${MAP_FORMAT}": rebuild the folder`);
  }
  return map;
}

/**
 * The build's ETag, from its bundle manifest (what the answerer sends): a digest of every answer's
 * content and headers, so the static answers, made from the same records and settings, change with
 * it too. Undefined for a build without a bundle or an ETag.
 */
export async function loadBuildEtag(dir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path.join(dir, BUNDLE_MANIFEST), 'utf8')) as BundleManifest).etag;
  } catch {
    return undefined;
  }
}

/**
 * The query bundle of a built folder on disk, as the answerer reads it (the preview, the build's check
 * of a new bundle): a file of its bundle/, or undefined when there is no such file (ENOENT; ENOTDIR, a
 * name under a file), and never one outside it. Any other failure of the disk is thrown, naming the
 * file: a bundle that cannot be read is not a bundle without that file.
 */
export function bundleFolderReader(dir: string): ReadFile {
  const folder = path.join(dir, BUNDLE_FOLDER);
  return async (file) => {
    const resolved = path.join(folder, file);
    if (!resolved.startsWith(folder)) return undefined;
    try {
      return await readFile(resolved);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new Error(`${resolved}: the query bundle's file cannot be read (${(error as Error).message})`, { cause: error });
    }
  };
}

/**
 * Every file of a built folder's query bundle checked against the hash that names it
 * (bundle/bundle-check.ts), as the preview does before it serves a build: a damaged or missing file
 * throws, naming it.
 */
export async function checkBundleFolder(dir: string): Promise<void> {
  await checkBundle(bundleFolderReader(dir));
}
