import { check, type CheckResult } from '../index.ts';
import { terminalProgress } from '../report/progress.ts';
import { parseOptions, type Command } from './command.ts';

export const checkCommand: Command = {
  name: 'check',
  usage: `Usage: lda-mirror check --dir <folder> [--problem-limit <n>]

Verifies a built folder: every url, next and previous in every file resolves through the rewrite
map to a file that exists, every file is reached by some link, the counts agree, and the manifest
matches the files byte for byte. Exits 1 and lists the problems when there are any.

Options:
  --dir <folder>         the built folder (default: dist)
  --problem-limit <n>    problems listed at most (default: 50)
  -h, --help             this help`,

  async run(argv) {
    const { values } = parseOptions(argv, { dir: { type: 'string' }, 'problem-limit': { type: 'string' } });
    if (values.help) {
      console.log(this.usage);
      return 0;
    }
    const dir = values.dir ?? 'dist';
    const result = await check({ dir, problemLimit: values['problem-limit'] }, { progress: terminalProgress() });
    console.log(formatCheck(dir, result));
    return result.problems.length === 0 ? 0 : 1;
  },
};

export function formatCheck(dir: string, result: CheckResult): string {
  const head = `${dir}: ${result.files.toLocaleString('en-US')} files, ${result.links.toLocaleString('en-US')} links checked`;
  if (result.problems.length === 0) return `${head}: no problem`;
  return [`${head}: problems found`, ...result.problems.map((problem) => `  ${problem}`), ...(result.truncated ? ['  (more not listed)'] : [])].join('\n');
}
