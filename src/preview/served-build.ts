import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkBundleFolder, loadBuildEtag, loadMap } from '../built-folder.ts';
import { MAP_FILE, type RewriteMap } from '../plan/rewrite-map.ts';

/** The build a preview serves: its rewrite map, and the build folder the output pointed at when the map was read. */
export interface ServedBuild {
  map: RewriteMap;
  folder: string;
  /** The build's ETag (the bundle manifest's, as the answerer sends it); undefined for a build without one. */
  etag?: string;
}

/** How often a preview looks for a new build: it answers from it within about this long after the switch, plus the check. */
const LOOK_MS = 500;

/**
 * The build of the folder, read again when a new build replaces it, so that a preview left running
 * serves each new build without a restart. The output is a link switched from one build folder to
 * the next: what is read of a build is read from its own folder (its real path), never half from the
 * next one, and the build keeps the previous folder until its next switch (write/output-slot.ts), so
 * requests begun on the old build finish on it. With `checked`, the query bundle of each build is
 * checked against the hashes that name its files before it is served: a damaged one is refused at
 * start (the error names the file) and, on a switch, left unserved while the last good one stays.
 */
export async function watchBuild(
  dir: string,
  options: { checked?: boolean; onSwitch?: (build: ServedBuild) => Promise<void> } = {},
): Promise<{ current(): ServedBuild; stop(): void }> {
  const read = async (): Promise<ServedBuild> => {
    const folder = await realpath(dir);
    const map = await loadMap(folder);
    if (options.checked) await checkBundleFolder(folder);
    return { map, folder, etag: await loadBuildEtag(folder) };
  };
  let build = await read();
  let stamp = await buildStamp(dir);
  let refused: string | undefined;
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void (async () => {
      const now = await buildStamp(dir);
      if (now === stamp || now === refused) return;
      try {
        const next = await read();
        // What must be ready before the new build is served (the workerd preview's new Worker).
        await options.onSwitch?.(next);
        build = next;
        stamp = now;
      } catch (error) {
        // A damaged build is never served; a build switching folders right now is read again at the next look.
        if ((await buildStamp(dir)) !== now) return;
        refused = now;
        console.error(`preview: the new build in ${dir} is not served: ${(error as Error).message}`);
      }
    })()
      .catch(() => {})
      .finally(() => (looking = false));
  }, LOOK_MS);
  timer.unref();
  return { current: () => build, stop: () => clearInterval(timer) };
}

/** What changes when the output moves to a new build: the folder it points at, and its map. */
async function buildStamp(dir: string): Promise<string> {
  const info = await stat(path.join(dir, MAP_FILE));
  return `${await realpath(dir)}:${info.ino}:${info.mtimeMs}`;
}

