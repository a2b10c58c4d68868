import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnAsync } from './spawn-async.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** tsx's loader, found from here: a child working in a folder outside the repository finds it too. */
const TSX_LOADER = import.meta.resolve('tsx');

/** Runs the real command line (`tsx src/cli.ts ...`) in a child process, as a user would. */
export function runCli(args: string[], cwd = REPO_ROOT): CliResult {
  const result = spawnSync(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}src/cli.ts`, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same without blocking this process: for tests that run something else meanwhile. */
export function runCliAsync(args: string[], cwd = REPO_ROOT): Promise<CliResult> {
  return spawnAsync(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}src/cli.ts`, ...args], { cwd, env: { ...process.env, FORCE_COLOR: '0' } });
}
