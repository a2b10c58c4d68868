#!/usr/bin/env node
import { buildCommand } from './commands/build-command.ts';
import { checkCommand } from './commands/check-command.ts';
import { emitCommand } from './commands/emit-command.ts';
import type { Command } from './commands/command.ts';
import { nightlyCommand } from './commands/nightly-command.ts';
import { previewCommand } from './commands/preview-command.ts';
import { syncCommand } from './commands/sync-command.ts';
import { InputError, UsageError } from './errors.ts';

const commands: Command[] = [buildCommand, previewCommand, checkCommand, emitCommand, syncCommand, nightlyCommand];

const usage = `Usage: tsx src/cli.ts <command> [options]   (or: npm run <command> -- [options])

Commands:
${commands.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`).join('\n')}

Run a command with --help for its options.`;

/** The only place that turns outcomes into exit codes: 0 done, 1 bad input or failure, 2 bad usage. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    console.error(`Unknown command "${name}".\n\n${usage}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${command.name}: ${error.message}\nRun with --help for the options.`);
      return 2;
    }
    if (error instanceof InputError) {
      console.error(`${command.name}: the input has problems; the previous output was left as it was.\n${error.message}`);
      return 1;
    }
    console.error(`${command.name} failed: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
