import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.ts';

/**
 * Keeps the rooms of the pipeline honest as the code grows: which part of src/ may import which, and
 * which npm package belongs to which room. Dependencies point one way: cli -> commands -> index (the
 * library) -> build -> stages -> contract.
 */
const SRC = path.join(REPO_ROOT, 'src');

/**
 * Room -> the rooms it may import (its own files always). `contract`, `errors` and `json-text` are the
 * ground floor, open to all. Imports point down only: no room imports one that imports it back.
 */
const ALLOWED: Record<string, string[]> = {
  cli: ['commands'],
  commands: ['index', 'config', 'report', 'hosts', 'sync', 'write'],
  // The library's entry (what `import ... from 'lda-clients-mirror'` gives): the commands' functions.
  index: ['build', 'config', 'preview', 'report', 'check', 'hosts', 'built-folder', 'sync', 'write', 'plan'],
  // The build plans (plan) and leaves the rendering to the render threads (produce): it imports no render.
  build: ['config', 'ingest', 'store', 'plan', 'bundle', 'previous', 'produce', 'write', 'report', 'check', 'hosts', 'choices'],
  // The build's verifier knows the units the render threads take (plan) and the pages they render (render), and is run by them (produce).
  // The check of a new build's query bundle: every file against the hash in its name (bundle/bundle-check.ts), then answers.
  check: ['built-folder', 'plan', 'routing', 'store', 'write', 'ingest', 'render', 'answer', 'bundle'],
  config: [],
  ingest: ['store', 'worker-thread'],
  store: [],
  // The values the state and country filters accept: the live service's lists, as data.
  choices: [],
  plan: [],
  render: ['plan', 'store', 'bundle'],
  routing: ['plan'],
  // The query bundle's files, as data: written by render/, read by answer/.
  bundle: [],
  // The answerer where code runs (contract section 9): reads the bundle, renders with render/'s bodies, reads requests with routing/.
  answer: ['bundle', 'render', 'routing'],
  // Each render thread verifies (check) and writes (write) what it renders.
  produce: ['render', 'store', 'plan', 'check', 'write', 'worker-thread', 'bundle', 'previous'],
  // What a build knows of the one before it: its files (a table of the store, read in a thread of its own from its manifest) and its bundle's packs.
  previous: ['store', 'write', 'worker-thread', 'bundle', 'render'],
  write: ['plan', 'store', 'config'],
  // The preview in workerd runs the Worker that the Cloudflare host emits; each build's bundle is checked before it is served (built-folder.ts).
  preview: ['routing', 'plan', 'built-folder', 'answer', 'hosts'],
  // Hosts that run code bundle the router (routing) or, where they answer by section 9, the answerer and its bundle's layout.
  hosts: ['plan', 'routing', 'answer', 'bundle', 'warm-up'],
  // The warm-up bundle the programs carry (answer/warm-up.ts): a build of a few sample clients, rendered into memory when a program is bundled.
  'warm-up': ['ingest', 'store', 'render', 'choices', 'bundle', 'answer'],
  // A full sync's progress line says the time left (report/time-left.ts).
  sync: ['config', 'report'],
  // A built folder's rewrite map and query bundle, as the commands that serve or check one read them.
  'built-folder': ['plan', 'bundle'],
  report: [],
  // How a module of src/ is started as a worker thread, from the sources or compiled.
  'worker-thread': [],
  'start-worker': [],
  contract: [],
  errors: [],
  'json-text': [],
};

const GROUND_FLOOR = ['contract', 'errors', 'json-text'];

/** npm packages and the only rooms that may use each. */
const PACKAGE_OWNERS: Record<string, string | string[]> = {
  'better-sqlite3': 'store',
  'fast-glob': 'ingest',
  'p-limit': 'sync',
  'serve-handler': 'preview',
  // Registered in the threads started from the TypeScript sources (worker-thread.ts).
  'tsx/esm/api': 'start-worker',
  // The edge programs' bundler (hosts/program-bundler.ts), loaded only when it bundles: devDependencies.
  esbuild: 'hosts',
  typescript: 'hosts',
};

/** Rooms that only compute: no file system, no network. */
const PURE = ['plan', 'render', 'routing', 'bundle', 'answer', 'contract', 'json-text'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mjs)$/.test(file) && !file.endsWith('.test.ts'))
    .map((file) => path.join(folder, file));
}

function roomOf(file: string): string {
  const relative = path.relative(SRC, file);
  const [first] = relative.split(path.sep);
  return first!.replace(/\.(ts|mjs)$/, '');
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((match) => match[1]!);
}

const files = sourceFiles(SRC);

/** The files each file imports by a relative path, resolved. */
const relativeImports = new Map(
  files.map((file) => [file, importsOf(file).filter((specifier) => specifier.startsWith('.')).map((specifier) => path.resolve(path.dirname(file), specifier))]),
);

/**
 * The run-time files: what the edge programs are bundled from, each host's runtime/ folder (and the
 * edge hosts' shared one, hosts/runtime/). Build time, which reads the file system, lives beside them.
 */
const RUNTIME_FILES = files.filter((file) => path.relative(SRC, file).split(path.sep).includes('runtime') && roomOf(file) === 'hosts');

/** A module of Node's, by either name (`node:fs`, `fs`, `fs/promises`): none exists where the edge programs run. */
const isNodeModule = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/**
 * Every Node module that the entries reach, through their relative imports at any depth, as
 * `file imports specifier`: the run-time files must reach none.
 */
function nodeImportsReached(entries: string[], importsOf: (file: string) => string[], relativeOf: (file: string) => string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  for (let queue = [...entries], file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) if (isNodeModule(specifier)) found.push(`${file} imports ${specifier}`);
    queue.push(...relativeOf(file));
  }
  return found.sort();
}

/**
 * The circles in the graph of files joined by their relative imports (`import type` too: a type
 * shared through the file that dispatches to its readers still ties them in a knot). Each circle
 * once, from the file where the walk entered it, back to that file.
 */
function importCircles(): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file);
    if (at >= 0) return void circles.push([...trail.slice(at), file]);
    if (done.has(file)) return;
    for (const next of relativeImports.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of files) walk(file, []);
  return circles;
}

describe('architecture of src/', () => {
  it('lets imports point down only: no room may reach, through others, a room that reaches it', () => {
    const reaches = (from: string, seen = new Set<string>()): Set<string> => {
      for (const next of ALLOWED[from] ?? []) if (!seen.has(next)) reaches(next, seen.add(next));
      return seen;
    };
    for (const room of Object.keys(ALLOWED)) expect([...reaches(room)], `${room} can reach itself`).not.toContain(room);
  });

  it('leaves the exit code to src/cli.ts: the library never exits, whoever calls it', () => {
    const exiting = files.filter((file) => roomOf(file) !== 'cli' && /process\.(exit\b|exitCode\b)/.test(readFileSync(file, 'utf8')));
    expect(exiting.map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('keeps Node out of the run time: no run-time file reaches a Node module, through any import', () => {
    expect(RUNTIME_FILES.map((file) => path.relative(SRC, file))).toEqual(
      expect.arrayContaining(['hosts/cloudflare/runtime/worker.ts', 'hosts/cloudfront/runtime/function.ts', 'hosts/runtime/fetch-handler.ts']),
    );
    const reached = nodeImportsReached(RUNTIME_FILES, importsOf, (file) => relativeImports.get(file) ?? []);
    expect(reached.map((line) => line.replaceAll(`${SRC}${path.sep}`, ''))).toEqual([]);
  });

  it('finds a Node module that a run-time file reaches, by either name and at any depth', () => {
    // A fixture graph: the entry imports a helper, which imports a module of Node's.
    const graph: Record<string, { imports: string[]; relative: string[] }> = {
      'runtime/entry.ts': { imports: ['./helper.ts', '../answer/answerer.ts'], relative: ['runtime/helper.ts', 'answer/answerer.ts'] },
      'runtime/helper.ts': { imports: ['node:fs'], relative: [] },
      'answer/answerer.ts': { imports: ['path', 'fs/promises', 'esbuild'], relative: [] },
      'build/emit.ts': { imports: ['node:child_process'], relative: [] },
    };
    const check = (entries: string[]) => nodeImportsReached(entries, (file) => graph[file]!.imports, (file) => graph[file]!.relative);
    expect(check(['runtime/entry.ts'])).toEqual(['answer/answerer.ts imports fs/promises', 'answer/answerer.ts imports path', 'runtime/helper.ts imports node:fs']);
    expect(check(['runtime/helper.ts'])).toEqual(['runtime/helper.ts imports node:fs']);
    // Build time may use Node: it is no run-time file's import.
    expect(check(['answer/answerer.ts']).some((line) => line.startsWith('build/'))).toBe(false);
  });

  it('knows every room', () => {
    for (const file of files) expect(Object.keys(ALLOWED), file).toContain(roomOf(file));
  });

  it('has no circle of imports between files: each file can be read before the files that import it', () => {
    const circles = importCircles().map((circle) => circle.map((file) => path.relative(SRC, file)).join(' -> '));
    expect(circles, `circles of imports:\n${circles.join('\n')}`).toEqual([]);
  });

  it.each(files.map((file) => [path.relative(SRC, file), file]))('%s imports only what its room may', (_name, file) => {
    const room = roomOf(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) {
        const target = roomOf(path.resolve(path.dirname(file), specifier));
        if (target === room || GROUND_FLOOR.includes(target)) continue;
        expect(ALLOWED[room], `${room} imports ${target} (${specifier})`).toContain(target);
      } else if (specifier.startsWith('node:')) {
        // Pure means no file system and no network; render (build time only) may also hash what it
        // renders (node:crypto: the bundle's ETag), which run-time files may not (the rule below).
        const computing = room === 'render' ? /^node:(url|util|crypto)$/ : /^node:(url|util)$/;
        if (PURE.includes(room)) expect(specifier, `${room} is pure but imports ${specifier}`).toMatch(computing);
      } else {
        const owner = PACKAGE_OWNERS[specifier];
        expect(owner, `unexpected package ${specifier}`).toBeDefined();
        expect([owner].flat(), `${specifier} belongs to ${String(owner)}`).toContain(room);
      }
    }
  });
});
