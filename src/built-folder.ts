import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
