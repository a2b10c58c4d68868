import { parseArgs, type ParseArgsConfig } from 'node:util';
import { OptionsError } from '../errors.ts';

/** One command of the command line; `run` returns the exit code, which only cli.ts sets. */
export interface Command {
  name: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What parseArgs returns for these options, named: the compiled declarations must spell it out. */
type ParsedOptions<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T & { help: { type: 'boolean'; short: 'h' } }; strict: true; allowPositionals: false }>
>;

/** parseArgs, with its errors turned into usage errors that name the option. */
export function parseOptions<T extends Options>(argv: string[], options: T): ParsedOptions<T> {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (error) {
    throw new OptionsError((error as Error).message.replace(/\. To specify a positional.*$/s, ''));
  }
}
