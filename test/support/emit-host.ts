import path from 'node:path';
import { runCli } from './cli.ts';
import type { HostAdapter } from '../../src/hosts/host-adapter.ts';

/**
 * Emits a host's configuration through the real command line (`npm run emit`), as a user would, and
 * returns where it went: the file itself for one-file hosts, else the folder.
 */
export function emitHost(host: HostAdapter, dir: string, out: string, listen?: string): string {
  const target = host.files.length === 1 ? path.join(out, host.files[0]!) : out;
  const result = runCli(['emit', host.name, '--dir', dir, '--out', target, ...(listen ? ['--listen', listen] : [])]);
  if (result.status !== 0) throw new Error(`npm run emit -- ${host.name} failed (${result.status}):\n${result.stderr}`);
  return target;
}
