import { copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/answerer.ts';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { netlifyEdge, PUBLISH_FOLDER } from '../../src/hosts/netlify-edge/netlify-edge.ts';
import { vercelEdge } from '../../src/hosts/vercel-edge/vercel-edge.ts';
import { emitHost } from '../support/emit-host.ts';
import type { RunningHost } from '../support/host-suite.ts';
import { startSite } from '../support/netlify-edge-site.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';
import { startVercelProject } from '../support/vercel-edge-project.ts';

/**
 * A deploy under a stream of requests (issue 36): the Netlify program in Deno and the Vercel program
 * in the edge runtime read the bundle from their origin, which is switched from one build to the
 * next as a deploy switches it (the new build's files, then its manifest, then the old files gone).
 * Bundle files are named by their content, so an instance holding the old manifest never reads new
 * bytes under an old name: it finds a file gone, reads the manifest again and answers wholly from the
 * new build. Every answer equals one build's answer; none is a 5xx.
 */
/** Before the switch, pages and records of the first clients in id order (the first chunks). */
const BEFORE = ['/api/v1/clients/', '/api/v1/clients/?client_name=bank&page=2', ...Array.from({ length: 8 }, (_, i) => `/api/v1/clients/${1 + i * 12}/`)];
/** Records in chunks no request read before the switch: their reads find the old chunks gone. */
const AFTER = Array.from({ length: 6 }, (_, i) => `/api/v1/clients/${260 + i * 7}/`);
const TARGETS = [...BEFORE, ...AFTER, '/api/v1/clients/?page=3&ordering=-name', '/api/v1/clients/?ordering=effective_date&page=4'];

describe.each([
  ['netlify-edge in Deno', (dir: string, scratch: string) => startSite(emitHost(netlifyEdge, dir, scratch)), PUBLISH_FOLDER],
  ['vercel-edge in the edge runtime', (dir: string, scratch: string) => startVercelProject(emitHost(vercelEdge, dir, scratch)), 'public'],
] as const)('a deploy switched under %s', (_name, start, publish) => {
  const temp = tempFolder();
  const dirs = { old: path.join(temp.path, 'old'), next: path.join(temp.path, 'next') };
  const answers: Record<'old' | 'next', Map<string, string>> = { old: new Map(), next: new Map() };
  let host: RunningHost;
  const scratch = path.join(temp.path, 'site');

  beforeAll(async () => {
    // The next build renames every client: each answer differs between the two builds.
    for (const [which, suffix] of [['old', 'BANK'], ['next', 'BANK TRUST']] as const) {
      const input = path.join(temp.path, `${which}.ndjson`);
      writeFileSync(input, ndjson(Array.from({ length: 300 }, (_, i) => clientRecord(i + 1, { name: `CLIENT ${(i * 7919) % 300} ${suffix}`, effective_date: `2024-0${1 + (i % 9)}-01` }))));
      await build(resolveBuildOptions({ input: [input], out: dirs[which], baseUrl: 'http://mirror.test' }));
      const folder = realpathSync(dirs[which]);
      const answerer = createAnswerer(async (file) => readFileSync(path.join(folder, 'bundle', file)));
      for (const target of TARGETS) answers[which].set(target, `${(await answerer.answer('GET', target)).status} ${(await answerer.answer('GET', target)).body}`);
    }
    mkdirSync(scratch);
    host = await start(dirs.old, scratch);
  }, 120_000);
  afterAll(async () => {
    await host?.stop();
    temp.remove();
  });

  it('answers each request wholly from one build, never a 5xx, and from the new one after the switch', async () => {
    const bundle = path.join(scratch, publish, 'bundle');
    const seen: { target: string; answer: string; sent: number; at: number }[] = [];
    let running = true;
    let targets = BEFORE;
    const asker = async (id: number) => {
      for (let n = id; running; n += 8) {
        const target = targets[n % targets.length]!;
        const sent = performance.now();
        const response = await fetch(`${host.url}${target}`);
        seen.push({ target, answer: `${response.status} ${await response.text()}`, sent, at: performance.now() });
      }
    };
    const askers = Array.from({ length: 8 }, (_, id) => asker(id));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The deploy: the new build's files beside the old (their names differ), its manifest, then the old files gone.
    const next = path.join(realpathSync(dirs.next), 'bundle');
    const oldFiles = filesUnder(bundle).filter((file) => file !== 'manifest.json');
    for (const file of filesUnder(next).filter((name) => name !== 'manifest.json')) {
      mkdirSync(path.dirname(path.join(bundle, file)), { recursive: true });
      copyFileSync(path.join(next, file), path.join(bundle, file));
    }
    copyFileSync(path.join(next, 'manifest.json'), path.join(bundle, 'manifest.json.new'));
    renameSync(path.join(bundle, 'manifest.json.new'), path.join(bundle, 'manifest.json'));
    const nextFiles = new Set(filesUnder(next));
    for (const file of oldFiles) if (!nextFiles.has(file)) rmSync(path.join(bundle, file));
    targets = TARGETS;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    running = false;
    await Promise.all(askers);

    const wrong = seen.filter(({ target, answer }) => answer !== answers.old.get(target) && answer !== answers.next.get(target));
    expect(wrong.map(({ target, answer }) => `${target}: ${answer.slice(0, 200)}`)).toEqual([]);
    expect(seen.filter(({ answer }) => answer.startsWith('5'))).toEqual([]);
    // A record read first after the switch finds its old chunk gone: the instance moves to the new
    // manifest, and every request sent after that is answered from the new build.
    const firstNew = seen.find(({ target }) => AFTER.includes(target));
    expect(firstNew?.answer).toBe(answers.next.get(firstNew!.target));
    const late = seen.filter(({ sent }) => sent > firstNew!.at);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter(({ target, answer }) => answer !== answers.next.get(target)).map(({ target }) => target)).toEqual([]);
    expect(seen.length).toBeGreaterThan(50);
  }, 60_000);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}
