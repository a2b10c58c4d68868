import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './cli.ts';
import { spawnAsync } from './spawn-async.ts';

/**
 * A copy of the checkout as a fresh clone has it: the files git tracks and the new ones it does not
 * ignore, as they stand in the working tree, with node_modules linked to the checkout's (what `npm ci`
 * installs). `npm pack` there compiles into the copy's lib/: the checkout is left as it was, and two
 * tests packing at once do not compile over each other's files.
 */
export function cleanCheckout(into: string): string {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  // A file deleted in the working tree is still listed as tracked: a clone of the next commit lacks it.
  for (const file of listed.split('\0').filter((file) => file !== '' && existsSync(path.join(REPO_ROOT, file)))) {
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, file), path.join(into, file));
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(into, 'node_modules'), 'dir');
  return into;
}

/** `npm pack` of a checkout into an empty folder (prepack compiles first); the tarball's path. */
export async function packCheckout(checkout: string, destination: string): Promise<string> {
  mkdirSync(destination, { recursive: true });
  const packed = await spawnAsync('npm', ['pack', '--pack-destination', destination], { cwd: checkout });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stdout}${packed.stderr}`);
  const [tarball, ...others] = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
  if (tarball === undefined || others.length > 0) throw new Error(`npm pack left ${readdirSync(destination).join(', ') || 'nothing'} in ${destination}`);
  return path.join(destination, tarball);
}
