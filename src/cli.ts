#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { COMMANDS } from './commands/commands.ts';
import { InputError, OptionsError } from './errors.ts';

const usage = `Usage: lda-mirror <command> [options]   (in a checkout: npm run <command> -- [options])

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`).join('\n')}

Run a command with --help for its options; lda-mirror --version prints the version.`;

/** The package's version: package.json is one folder up from src/cli.ts and from the compiled lib/cli.js alike. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** The only place that turns outcomes into exit codes: 0 done, 1 bad input or failure, 2 bad usage. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(version());
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    console.error(`Unknown command "${name}".\n\n${usage}`);
    return 2;
  }
  try {
    return await (await command.load()).run(rest);
  } catch (error) {
    if (error instanceof OptionsError) {
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
