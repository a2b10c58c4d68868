import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFixtureExists } from '../support/shared-fixtures.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { spawnAsync } from '../support/spawn-async.ts';

/**
 * The README is the front door and docs/ the reference: the README stays one short read with the two
 * commands on its first screen, the contract in docs/ stays the shared one, no link leads nowhere, and
 * every command an example runs is one the program has, with options it accepts.
 */
const SHARED_CONTRACT = path.join(REPO_ROOT, '..', 'shared', 'spec', 'contract.md');
const DOCS = path.join(REPO_ROOT, 'docs');
const README_LINE_LIMIT = 100;
/** What a terminal shows before the reader scrolls. */
const FIRST_SCREEN_LINES = 24;
const FIRST_COMMANDS = ['npm install && npm start', 'npm install && npm test'];
const CLI = 'src/cli.ts';

const documents = ['README.md', 'BENCHMARKS.md', ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const { scripts, bin } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };

describe('the documentation', () => {
  it.skipIf(!sharedFixtureExists(SHARED_CONTRACT))('docs/contract.md is byte-identical to ../shared/spec/contract.md', () => {
    expect(readFileSync(path.join(DOCS, 'contract.md')).equals(readFileSync(SHARED_CONTRACT)), 'copy ../shared/spec/contract.md to docs/contract.md').toBe(true);
  });

  it(`README.md is at most ${README_LINE_LIMIT} lines`, () => {
    expect(readmeLines().length).toBeLessThanOrEqual(README_LINE_LIMIT);
  });

  it.each(FIRST_COMMANDS)(`README.md shows %s in its first ${FIRST_SCREEN_LINES} lines`, (command) => {
    expect(readmeLines().slice(0, FIRST_SCREEN_LINES).some((line) => line.includes(command))).toBe(true);
  });

  it.each(documents)('every relative link in %s points at a file that exists', (document) => {
    const broken = relativeLinks(document).filter((link) => !existsSync(link.file)).map((link) => link.target);
    expect(broken).toEqual([]);
  });

  it.each(documents)('every #anchor of a relative link in %s names a heading of its document', (document) => {
    const broken = relativeLinks(document)
      .filter((link) => link.anchor !== undefined && link.file.endsWith('.md') && existsSync(link.file))
      .filter((link) => !headingAnchors(link.file).has(link.anchor!))
      .map((link) => link.target);
    expect(broken).toEqual([]);
  });
});

describe('the examples of the documentation', () => {
  // BENCHMARKS.md's commands are a record of what was run then, not examples to run now.
  const exampleDocuments = documents.filter((document) => document !== 'BENCHMARKS.md');
  const runs = exampleDocuments.flatMap((document) => commandRuns(document));
  /** The --help of each program an example runs, and of every command, read once: program (its argv, joined) -> help. */
  const helps = new Map<string, Help>();
  const helpOf = (program: string[]) => helps.get(program.join(' '))!;
  const cliCommands = () => helpOf([CLI]).listed.get('Commands') ?? [];

  beforeAll(async () => {
    helps.set(CLI, await readHelp([CLI]));
    const programs = new Map(cliCommands().map((command) => [`${CLI} ${command}`, [CLI, command]]));
    for (const run of runs) {
      const program = programOf(run, cliCommands());
      if (program !== undefined) programs.set(program.join(' '), program);
    }
    await Promise.all([...programs].map(async ([key, program]) => helps.set(key, await readHelp(program))));
  });

  it.each(exampleDocuments)('every example in %s runs a script or command that exists, with options its --help lists', (document) => {
    const commands = cliCommands();
    const wrong: string[] = [];
    for (const run of runs.filter((candidate) => candidate.document === document)) {
      if (run.script !== undefined && !isPlaceholder(run.script) && scripts[run.script] === undefined) wrong.push(`${run.line}: no script ${run.script}`);
      if (run.command !== undefined && !isPlaceholder(run.command) && !commands.includes(run.command)) wrong.push(`${run.line}: no command ${run.command}`);
      const program = programOf(run, commands);
      if (program === undefined) continue;
      const help = helpOf(program);
      for (const option of run.args.filter((arg) => arg.startsWith('--') && arg !== '--').map((arg) => arg.split('=')[0]!)) {
        if (!help.options.has(option)) wrong.push(`${run.line}: ${program.join(' ')} has no ${option}`);
      }
      // A command whose help lists its first argument's values (emit's hosts) takes only those.
      const [first] = run.args;
      const values = help.listed.get('Hosts');
      if (values !== undefined && first !== undefined && !first.startsWith('-') && !isPlaceholder(first) && !values.includes(first)) {
        wrong.push(`${run.line}: ${program.join(' ')} has no ${first}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("docs/cli.md has a section for each command, naming every option of the command's --help and no other", () => {
    const sections = markdownSections(readFileSync(path.join(DOCS, 'cli.md'), 'utf8'));
    const wrong: string[] = [];
    for (const command of cliCommands()) {
      const section = sections.get(command);
      if (section === undefined) {
        wrong.push(`## ${command}`);
        continue;
      }
      const { options } = helpOf([CLI, command]);
      for (const option of [...options].filter((name) => name !== '--help')) {
        if (!section.includes(`\`${option}`)) wrong.push(`${command} ${option}`);
      }
      for (const [, option] of section.matchAll(/^\| `(--[a-z][a-z0-9-]*)/gm)) {
        if (!options.has(option!)) wrong.push(`${command} has no ${option}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

interface Link {
  target: string;
  /** The file the link leads to, absolute. */
  file: string;
  anchor?: string;
}

/** Markdown links (inline and reference-style) outside code, that lead to a place in this repository. */
function relativeLinks(document: string): Link[] {
  const text = withoutCode(readFileSync(path.join(REPO_ROOT, document), 'utf8'));
  const targets = [
    ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [filePart, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = filePart === '' ? path.join(REPO_ROOT, document) : path.resolve(path.dirname(path.join(REPO_ROOT, document)), decodeURIComponent(filePart));
      return { target, file, anchor };
    });
}

const FENCED_BLOCK = /^[ \t]*(```|~~~)([^\n]*)\n([\s\S]*?)^[ \t]*\1[^\n]*$/gm;

/** Fenced blocks and inline code hold examples, not links. */
function withoutCode(text: string): string {
  return withoutFencedBlocks(text).replace(/`[^`\n]*`/g, '');
}

function withoutFencedBlocks(text: string): string {
  return text.replace(FENCED_BLOCK, '');
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as `-`. */
function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const text = withoutFencedBlocks(readFileSync(file, 'utf8'));
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

function readmeLines(): string[] {
  const lines = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** A run of an npm script (`npm run <script> -- <args>`, `npm start`) or of the installed command (`npx lda-mirror <command> <args>`), and its line. */
interface CommandRun {
  document: string;
  line: string;
  script?: string;
  command?: string;
  args: string[];
}

/** The runs that a document's shell blocks and inline code show. */
function commandRuns(document: string): CommandRun[] {
  const text = readFileSync(path.join(REPO_ROOT, document), 'utf8');
  const shellLines = [...text.matchAll(FENCED_BLOCK)]
    .filter((match) => /^\s*(sh|bash|shell|console|zsh)\s*$/.test(match[2]!))
    .flatMap((match) => match[3]!.replace(/\\\n/g, ' ').split('\n'))
    .map((line) => line.replace(/^\s*\$ /, '').replace(/\s+#.*$/, ''));
  const inlineCode = [...withoutFencedBlocks(text).matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!.replace(/\s+/g, ' '))
    .filter((code) => ['npm', 'npx', ...Object.keys(bin)].includes(code.split(' ')[0]!));
  return [...shellLines, ...inlineCode]
    .flatMap((line) => line.split(/&&|\|\||;|\|/))
    .map((part) => runOf(document, part.trim()))
    .filter((run): run is CommandRun => run !== undefined);
}

function runOf(document: string, line: string): CommandRun | undefined {
  const tokens = line.split(/\s+/).map((token) => token.replace(/^\[|\]$/g, ''));
  const npm = tokens.indexOf('npm');
  const [verb, named] = npm === -1 ? [] : [tokens[npm + 1], tokens[npm + 2]];
  const script = verb === 'start' || verb === 'test' ? verb : verb === 'run' ? named : undefined;
  if (script !== undefined) {
    const separator = tokens.indexOf('--', npm);
    return { document, line, script, args: separator === -1 ? [] : tokens.slice(separator + 1) };
  }
  const at = tokens.findIndex((token, index) => token in bin && (index === 0 || tokens[index - 1] === 'npx'));
  const command = at === -1 ? undefined : tokens[at + 1];
  return command === undefined || command.startsWith('-') ? undefined : { document, line, command, args: tokens.slice(at + 2) };
}

/** `<host>`, `<command>`: a place for the reader's own value. */
function isPlaceholder(token: string): boolean {
  return token.startsWith('<');
}

/** The program (a file run by tsx, and its fixed arguments) whose --help says what a run accepts; none for a run without arguments or of what is missing. */
function programOf(run: CommandRun, commands: string[]): string[] | undefined {
  if (run.args.length === 0) return undefined;
  if (run.command !== undefined) return commands.includes(run.command) ? [CLI, run.command] : undefined;
  const script = scripts[run.script!];
  if (script === undefined || isPlaceholder(run.script!)) return undefined;
  const [runner, ...program] = script.split(/\s+/);
  if (runner !== 'tsx') throw new Error(`npm run ${run.script} is not run by tsx: read its options some other way (${run.document}: ${run.line})`);
  return program;
}

/** What a --help lists: `--option`s, one a line (`  -h, --help  ...`), and names under a heading (`Commands:`, `Hosts:`), two spaces in. */
interface Help {
  options: Set<string>;
  listed: Map<string, string[]>;
}

async function readHelp(program: string[]): Promise<Help> {
  const result = await spawnAsync(process.execPath, ['--import', 'tsx', ...program, '--help'], { cwd: REPO_ROOT });
  if (result.status !== 0) throw new Error(`${program.join(' ')} --help failed:\n${result.stderr}`);
  const lines = result.stdout.split('\n');
  const options = new Set(lines.flatMap((line) => /^\s+(?:-\w,\s+)?(--[a-z][a-z0-9-]*)/.exec(line)?.[1] ?? []));
  const listed = new Map<string, string[]>();
  let heading: string | undefined;
  for (const line of lines) {
    const title = /^(\w[\w ]*):$/.exec(line)?.[1];
    if (title !== undefined) heading = title;
    else if (line.trim() === '' || !line.startsWith(' ')) heading = undefined;
    else if (heading !== undefined && /^ {2}\S/.test(line)) listed.set(heading, [...(listed.get(heading) ?? []), line.trim().split(/\s+/)[0]!]);
  }
  return { options, listed };
}

/** The text under each `## ` heading of a document, by the heading's text. */
function markdownSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of withoutFencedBlocks(text).split(/^(?=## )/m).slice(1)) {
    const [heading, ...body] = part.split('\n');
    sections.set(heading!.slice(3).trim(), body.join('\n'));
  }
  return sections;
}
