import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * The program of another revision, for `npm run bench -- --baseline <rev>`: a detached git worktree
 * of it in the bench's folder, with this checkout's node_modules linked in, compiled as this one is
 * (scripts/compile.ts). The build child runs its lib/index.js as it runs this one's.
 */
export interface BaselineProgram {
  /** The revision's commit, abbreviated. */
  commit: string;
  /** Its compiled program, lib/index.js. */
  program: string;
  /** Removes the worktree (at the end of the bench). */
  remove(): void;
}

export function prepareBaseline(revision: string, root: string, log: (text: string) => void): BaselineProgram {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', '--short=12', `${revision}^{commit}`);
  const worktree = path.join(root, `baseline-${commit}`);
  const remove = () => {
    // A worktree left by a bench that was stopped may be half made, or registered no more: git may refuse it.
    if (existsSync(worktree)) spawnSync('git', ['worktree', 'remove', '--force', worktree], { stdio: 'ignore' });
    rmSync(worktree, { recursive: true, force: true });
    git('worktree', 'prune');
  };
  remove();
  log(`baseline: ${revision} is ${commit}; a worktree of it in ${path.relative('.', worktree)}, compiled`);
  git('worktree', 'add', '--detach', worktree, commit);
  symlinkSync(realpathSync('node_modules'), path.join(worktree, 'node_modules'));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/compile.ts'], { cwd: worktree, stdio: 'inherit' });
  return { commit, program: path.join(worktree, 'lib/index.js'), remove };
}
