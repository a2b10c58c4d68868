import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { QueryBundle } from '../../src/bundle/query-bundle.ts';

/** Every file under a folder with the hash of its bytes, plus where a link points: to compare builds. */
export function snapshot(folder: string): { link: string | undefined; files: Record<string, string> } {
  let link: string | undefined;
  try {
    link = readlinkSync(folder);
  } catch {
    link = undefined;
  }
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(folder, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return { link, files };
}

/**
 * What a build made of its records, to compare builds of the same records read from different files:
 * every file but `_build/build.json`, whose fingerprint covers the input files' bytes (a sync may
 * write the same records with other bytes).
 */
export function builtFromRecords(folder: string): Record<string, string> {
  const { files } = snapshot(folder);
  delete files['_build/build.json'];
  return files;
}

/**
 * What a build made of its records, as `builtFromRecords`, for builds with different pasts: the
 * query bundle's registrant packs keep a previous build's base and add an overlay (plan/registrant-
 * packs.ts), so their layout depends on the builds before. So the packs and the manifest's account of
 * them are left out, and in their place every registrant text the bundle answers with, read through
 * the answerer's own reader, and the rest of the manifest.
 */
export async function builtFromRecordsAnswering(folder: string): Promise<Record<string, string>> {
  const files = builtFromRecords(folder);
  const layout = /^bundle\/(manifest\.json|registrants\/(base-.*|overlay)\.bin)$/;
  for (const file of Object.keys(files)) if (layout.test(file)) delete files[file];
  // The build's manifest lists every file with its hash: those of the packs' layout are left out of it too.
  const listed = readFileSync(path.join(folder, '_build/manifest.tsv'), 'utf8').split('\n').filter((line) => !layout.test(line.split('\t')[0]!));
  files['_build/manifest.tsv'] = createHash('sha256').update(listed.join('\n')).digest('hex');
  const bundle = (await QueryBundle.open(async (file) => readFileSync(path.join(folder, 'bundle', file))))!;
  const { registrantPacks, ...manifest } = bundle.manifest;
  files['bundle/manifest.json without its registrant packs'] = JSON.stringify(manifest);
  for (const id of await bundle.registrantColumn('ids')) files[`registrant ${id} answered`] = (await bundle.registrantFields(id)) ?? 'none';
  return files;
}

/**
 * Waits until the previous builds that the command line deletes in a process of its own are gone
 * from `folder` (the output's parent), so that a test can list what stays there.
 */
export async function backgroundRemovalsDone(folder: string, timeoutMs = 30_000): Promise<void> {
  const { readdirSync } = await import('node:fs');
  for (const started = Date.now(); readdirSync(folder).some((entry) => entry.includes('.trash-')); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`a previous build in ${folder} was not removed within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
