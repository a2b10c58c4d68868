import type { Command } from './command.ts';

/** A command as the command line lists it: what `--help` prints, and how to load it to run it. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/**
 * Every command, in the order --help lists them. A command's module (the build with SQLite, the
 * preview server, ...) is imported only when that command runs, so that `--help` and `--version`
 * start in a few tens of milliseconds.
 */
export const COMMANDS: CommandEntry[] = [
  {
    name: 'build',
    summary: 'build the static mirror from client records',
    load: async () => (await import('./build-command.ts')).buildCommand,
  },
  {
    name: 'preview',
    summary: 'serve a built folder locally, answering like the live API',
    load: async () => (await import('./preview-command.ts')).previewCommand,
  },
  {
    name: 'check',
    summary: 'verify a built folder: links, reachability, counts, manifest',
    load: async () => (await import('./check-command.ts')).checkCommand,
  },
  {
    name: 'emit',
    summary: "write a host's configuration (nginx, Caddy, Netlify, ...) for a built folder",
    load: async () => (await import('./emit-command.ts')).emitCommand,
  },
  {
    name: 'sync',
    summary: 'copy the client records of the live service into a folder, for build',
    load: async () => (await import('./sync-command.ts')).syncCommand,
  },
  {
    name: 'nightly',
    summary: 'sync from the live service, build, check, and print the change list for deploy',
    load: async () => (await import('./nightly-command.ts')).nightlyCommand,
  },
];
