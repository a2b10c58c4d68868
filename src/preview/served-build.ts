import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadBuildEtag, loadMap } from '../built-folder.ts';
import { MAP_FILE, type RewriteMap } from '../plan/rewrite-map.ts';

/** The build a preview serves: its rewrite map, and the build folder the output pointed at when the map was read. */
export interface ServedBuild {
  map: RewriteMap;
  folder: string;
  /** The build's ETag (the bundle manifest's, as the answerer sends it); undefined for a build without one. */
  etag?: string;
}

/**
 * The build of the folder, read again when a new build replaces it, so that a preview left running
 * serves each new build without a restart. The output is a link switched from one build folder to
 * the next: what is read of a build is read from its own folder, never half from the next one.
 */
export async function watchBuild(dir: string): Promise<{ current(): ServedBuild; stop(): void }> {
  const file = path.join(dir, MAP_FILE);
  const read = async (): Promise<ServedBuild> => {
    const folder = await realpath(dir);
    return { map: await loadMap(dir), folder, etag: await loadBuildEtag(folder) };
  };
  let build = await read();
  let stamp = await mapStamp(file);
  const timer = setInterval(() => {
    void (async () => {
      const now = await mapStamp(file);
      if (now === stamp) return;
      build = await read();
      stamp = now;
    })().catch(() => {}); // a build switching folders right now: keep serving the last good one
  }, 1000);
  timer.unref();
  return { current: () => build, stop: () => clearInterval(timer) };
}

async function mapStamp(file: string): Promise<string> {
  const info = await stat(file);
  return `${info.ino}:${info.mtimeMs}`;
}

