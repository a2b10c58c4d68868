import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.ts';

/** One command of the command line; `run` returns the exit code, which only cli.ts sets. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, with its errors turned into usage errors that name the option. */
export function parseOptions<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, ''));
  }
}
