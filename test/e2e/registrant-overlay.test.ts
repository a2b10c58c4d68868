import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnswerer, type Reply } from '../../src/answer/answerer.ts';
import { bundleFolderReader, checkBundleFolder } from '../../src/built-folder.ts';
import { build, type BuildSummary } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import type { BundleManifest } from '../../src/bundle/bundle-manifest.ts';
import { decodeRecordDirectory, directoryStem } from '../../src/bundle/record-directory.ts';
import { OVERLAY_BYTES } from '../../src/render/registrant-overlay.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The registrant overlay (docs/query-bundle.md): a rebuild over the previous output keeps the client
 * chunks whose clients did not change, a changed registrant's text going to the overlay, and answers
 * every request with the bytes (and headers) of a fresh build of the same records.
 */
const BASE_URL = 'https://m.example.org';
const REGISTRANTS = 20;

/** 210 clients: client i of registrant 900 + i % 20, so that each registrant has clients in every chunk. */
function records(names: Record<number, string> = {}, clients = 200) {
  return Array.from({ length: clients }, (_, i) => {
    const id = i + 1;
    const registrant = 900 + (id % REGISTRANTS);
    return clientRecord(id, { name: `CLIENT ${(id * 37) % 211}`, effective_date: id % 5 === 0 ? null : `20${10 + (id % 13)}-01-0${1 + (id % 9)}` }, {
      id: registrant,
      url: `https://lda.senate.gov/api/v1/registrants/${registrant}/?format=api`,
      name: names[registrant] ?? `REGISTRANT ${registrant}`,
    });
  });
}

/** What a night's change asks the mirror: pages in every ordering, records, searches by registrant, the registrants list. */
function requests(ids: readonly number[], names: readonly string[]): string[] {
  const clients = '/api/v1/clients/';
  return [
    clients,
    `${clients}?page=2`,
    `${clients}?page=last&page_size=7`,
    `${clients}?ordering=name&page=3`,
    `${clients}?ordering=-name,effective_date&page=2`,
    `${clients}?ordering=-effective_date&page=5&format=json`,
    `${clients}?client_name=client 1&ordering=-id`,
    ...ids.flatMap((id) => [`${clients}${id}/`, `${clients}${id}/?format=json`]),
    ...names.flatMap((name) => [`${clients}?registrant_name=${encodeURIComponent(name)}`, `/api/v1/registrants/?registrant_name=${encodeURIComponent(name)}`]),
    `${clients}?registrant_id=905&page_size=3&page=2`,
    '/api/v1/registrants/',
    '/api/v1/registrants/?ordering=-dt_updated',
    '/api/v1/registrants/905/',
    '/api/v1/registrants/907/?format=json',
  ];
}

async function answers(dir: string, targets: readonly string[]): Promise<Reply[]> {
  const answerer = createAnswerer(bundleFolderReader(dir));
  const replies: Reply[] = [];
  for (const target of targets) replies.push(await answerer.answer('GET', target));
  return replies;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'bundle/manifest.json'), 'utf8')) as BundleManifest;
const bundleNames = (dir: string) => readdirSync(path.join(dir, 'bundle'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
const changedChunks = (dir: string) =>
  readFileSync(path.join(dir, '_build/changed.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('bundle/clients/') && !line.startsWith(`bundle/${directoryStem('chunks')}.`));
/** A build's client chunks, from their directory: each one's file under bundle/ (its first id and hash). */
const chunksOf = (dir: string) => {
  const { file } = manifestOf(dir).chunks;
  const directory = decodeRecordDirectory('chunks', readFileSync(path.join(dir, 'bundle', file)), file);
  return Array.from({ length: directory.count }, (_, k) => directory.file(k));
};

// Two builds a night, up to four nights a test, on a shared machine.
describe('the registrant overlay', { timeout: 180_000 }, () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  // A fresh build of each night's records, in a folder of its own (no previous output).
  let nights = 0;
  let fresh = '';
  const input = path.join(temp.path, 'in.ndjson');
  afterAll(() => temp.remove());

  const buildInto = (folder: string, list: readonly unknown[]): Promise<BuildSummary> => {
    writeFileSync(input, ndjson(list));
    return build(resolveBuildOptions({ input: [input], out: folder, baseUrl: BASE_URL, formats: 'none,json', filters: 'none' }));
  };

  /** Builds `list` over the previous output and fresh, and holds every answer of the first to the second's (unless `compare` is false). */
  async function night(list: ReturnType<typeof records>, names: string[], compare = true): Promise<BuildSummary> {
    const summary = await buildInto(out, list);
    if (!compare) return summary;
    fresh = path.join(temp.path, `fresh-${++nights}`);
    await buildInto(fresh, list);
    const targets = requests([1, 5, 25, 105, 200, list.at(-1)!.id], names);
    const [got, expected] = [await answers(out, targets), await answers(fresh, targets)];
    for (const [i, target] of targets.entries()) {
      expect(got[i]!.status, target).toBe(200);
      expect(got[i], target).toEqual(expected[i]);
    }
    return summary;
  }

  it('a first build has no overlay', async () => {
    await buildInto(out, records());
    expect(manifestOf(out).overlay).toBeUndefined();
  });

  // Each night's registrant names (of those renamed); the others keep `REGISTRANT <id>`.
  let names: Record<number, string> = {};

  it('renamed registrants and new clients: the chunks of unchanged clients keep their bytes, the renamed go to the overlay, every answer is a fresh build\'s', async () => {
    const before = chunksOf(out);
    names = { 905: 'RENAMED FIVE', 912: 'RENAMED TWELVE' };
    await night(records(names, 210), ['RENAMED', 'REGISTRANT 905', 'REGISTRANT 9']);

    const after = manifestOf(out);
    expect(after.overlay?.ids).toEqual([905, 912]);
    // The overlay holds what changed of them, as JSON text: their names.
    expect(readFileSync(path.join(out, 'bundle', after.overlay!.file), 'utf8')).toBe('{"905":{"name":"\\"RENAMED FIVE\\""},"912":{"name":"\\"RENAMED TWELVE\\""}}');
    // Only the last chunk (the new clients joined it, or new chunks began) is written; the others are the previous build's.
    expect(changedChunks(out).length).toBeLessThanOrEqual(2);
    const chunks = chunksOf(out);
    expect(chunks.length).toBeGreaterThan(4);
    const kept = chunks.filter((file, k) => before[k] === file);
    expect(kept.length).toBeGreaterThanOrEqual(chunks.length - 2);
    // The fresh build embeds the texts of now: no overlay, other chunks, and the same ETag.
    expect(manifestOf(fresh).overlay).toBeUndefined();
    expect(chunksOf(fresh)).not.toEqual(chunks);
    expect(manifestOf(fresh).etag).toBe(after.etag);
  });

  it('the overlay grows night after night: a registrant stays in it while any chunk holds another text of it', async () => {
    // 912 back to the name the older chunks hold (the last one, written last night, holds the other); 907
    // renamed; 905 renamed again.
    names = { 905: 'RENAMED FIVE AGAIN', 907: 'RENAMED SEVEN' };
    await night(records(names, 210), ['RENAMED', 'REGISTRANT 912']);
    expect(manifestOf(out).overlay?.ids).toEqual([905, 907, 912]);
    expect(changedChunks(out)).toEqual([]);
  });

  it('past its bound, a registrant in every chunk is let go: every chunk written with the texts of now, the bundle a fresh build\'s, file for file', async () => {
    names = { ...names, 901: `RENAMED ${'LONG '.repeat(Math.ceil(OVERLAY_BYTES / 5))}` };
    await night(records(names, 210), ['RENAMED', 'LONG LONG']);
    expect(manifestOf(out).overlay).toBeUndefined();
    expect(bundleNames(out)).toEqual(bundleNames(fresh));
    expect(changedChunks(out).length).toBe(chunksOf(out).length);
  });

  it('a previous chunk that is damaged is not kept: it is written fresh, and the answers stay a fresh build\'s', async () => {
    names = { ...names, 903: 'RENAMED THREE' };
    await night(records(names, 210), ['RENAMED']);
    const manifest = manifestOf(out);
    expect(manifest.overlay?.ids).toEqual([903]);
    // Damage one chunk of the output (the previous build of the next night), then rename another registrant.
    const chunk = path.join(out, 'bundle', chunksOf(out)[1]!);
    const bytes = readFileSync(chunk);
    bytes[bytes.length - 3]! ^= 1;
    writeFileSync(chunk, bytes);
    names = { ...names, 904: 'RENAMED FOUR' };
    await night(records(names, 210), ['RENAMED']);
    const after = manifestOf(out);
    expect(after.overlay?.ids).toEqual([903, 904]);
    expect(changedChunks(out)).toEqual([`bundle/${chunksOf(out)[1]}`]);
    expect(chunksOf(out)[1]).toBe(chunksOf(fresh)[1]);
  });

  it('a previous bundle this program cannot read (another format, a damaged manifest, overlay, chunk or pack directory) gives a fresh bundle', async () => {
    const manifestFile = path.join(out, 'bundle/manifest.json');
    // A directory, which names the chunks or packs to compare and keep: one byte of a hash changed.
    const damageDirectory = (file: string) => {
      const directory = path.join(out, 'bundle', file);
      const bytes = readFileSync(directory);
      bytes[bytes.length - 1]! ^= 1;
      writeFileSync(directory, bytes);
    };
    const damages = [
      () => writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace('query-bundle@', 'query-bundle@0')),
      () => writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').slice(0, 100)),
      () => writeFileSync(path.join(out, 'bundle', manifestOf(out).overlay!.file), '{"903":{"name":"\\"OTHER\\""}}'),
      () => damageDirectory(manifestOf(out).chunks.file),
      () => damageDirectory(manifestOf(out).registrantPacks.file),
    ];
    for (const [n, damage] of damages.entries()) {
      names = { ...names, 906: `RENAMED SIX ${n}` };
      await night(records(names, 210), ['RENAMED'], false);
      expect(manifestOf(out).overlay?.ids).toContain(906);
      damage();
      names = { ...names, 908: `RENAMED EIGHT ${n}` };
      await night(records(names, 210), ['RENAMED']);
      expect(manifestOf(out).overlay).toBeUndefined();
      expect(bundleNames(out)).toEqual(bundleNames(fresh));
    }
  });

  it('a damaged overlay file is found: the bundle check refuses the build naming it, an answer that reads it is a 500 naming it', async () => {
    names = { ...names, 909: 'RENAMED NINE' };
    await night(records(names, 210), ['RENAMED']);
    const { overlay } = manifestOf(out);
    expect(overlay?.ids).toContain(909);
    await checkBundleFolder(out);
    const file = path.join(out, 'bundle', overlay!.file);
    const bytes = readFileSync(file);
    bytes[bytes.length - 3]! ^= 1;
    writeFileSync(file, bytes);
    const name = `bundle/${overlay!.file}`;
    await expect(checkBundleFolder(out)).rejects.toThrow(`${name}: its bytes`);
    // Client 9's registrant is 909; a registrant's own record reads its pack, not the overlay.
    const [client, registrant] = await answers(out, ['/api/v1/clients/9/', '/api/v1/registrants/909/']);
    expect([client!.status, JSON.parse(client!.body).detail]).toEqual([500, expect.stringContaining(`${name}: its bytes`)]);
    expect(registrant!.status).toBe(200);
  });

  it('new registrants are not weighed as changed: 200 clients of new registrants join, one registrant is renamed, and only it goes to the overlay', async () => {
    // Counted in every key, as a changed registrant would be, the 200 new ones would weigh past the bound and fold the overlay.
    const newcomers = Array.from({ length: 200 }, (_, k) => {
      const registrant = 2000 + k;
      return clientRecord(1000 + k, { name: `NEWCOMER ${k}` }, { id: registrant, url: `https://lda.senate.gov/api/v1/registrants/${registrant}/?format=api`, name: `NEW REGISTRANT ${k}` });
    });
    names = { ...names, 910: 'RENAMED TEN' };
    // Over a previous bundle with no overlay (the last test damaged its overlay: this night starts fresh).
    await night(records(names, 210), ['RENAMED'], false);
    expect(manifestOf(out).overlay).toBeUndefined();
    const before = chunksOf(out);
    names = { ...names, 911: 'RENAMED ELEVEN' };
    await night([...records(names, 210), ...newcomers], ['RENAMED', 'NEW REGISTRANT 1', 'NEWCOMER']);
    expect(manifestOf(out).overlay?.ids).toEqual([911]);
    // The previous chunks are kept but the last, which the new clients may have joined.
    const kept = new Set(chunksOf(out));
    expect(before.filter((file) => !kept.has(file)).length).toBeLessThanOrEqual(1);
  });

  it('past its bound the overlay lets go of the registrants cheapest to write again: those of one client go, those in every chunk stay', async () => {
    // The last test's 200 newcomers each have a registrant of their own, in one chunk; registrants 900 to
    // 919 are in every chunk. Ten of these and thirty of those renamed, with names that together pass the bound.
    const long = (id: number) => `RENAMED ${id} ${'X'.repeat(1100)}`;
    const big = Array.from({ length: 10 }, (_, k) => 900 + k);
    const small = Array.from({ length: 30 }, (_, k) => 2000 + k);
    const newcomers = Array.from({ length: 200 }, (_, k) => {
      const registrant = 2000 + k;
      const name = small.includes(registrant) ? long(registrant) : `NEW REGISTRANT ${k}`;
      return clientRecord(1000 + k, { name: `NEWCOMER ${k}` }, { id: registrant, url: `https://lda.senate.gov/api/v1/registrants/${registrant}/?format=api`, name });
    });
    const chunksBefore = chunksOf(out);
    names = { ...names, ...Object.fromEntries(big.map((id) => [id, long(id)])) };
    await night([...records(names, 210), ...newcomers], ['RENAMED 905', 'RENAMED 2001', 'NEWCOMER']);

    const { overlay } = manifestOf(out);
    // The big ones stay (with 911 of the night before); some small ones are let go, and the file is within its bound.
    expect(overlay?.ids).toEqual(expect.arrayContaining([...big, 911]));
    expect(small.filter((id) => !overlay!.ids.includes(id)).length).toBeGreaterThan(0);
    expect(readFileSync(path.join(out, 'bundle', overlay!.file)).length).toBeLessThanOrEqual(OVERLAY_BYTES);
    // Written again: some chunks, each one that holds a client of a registrant let go (client 1000 + k is registrant 2000 + k's).
    const letGo = small.filter((id) => !overlay!.ids.includes(id));
    const firstIds = chunksBefore.map((file) => Number(path.basename(file).split('.')[0]));
    const chunkOf = (client: number) => chunksBefore[firstIds.findLastIndex((first) => first <= client)]!;
    const holdingLetGo = new Set(letGo.map((id) => chunkOf(1000 + id - 2000)));
    const kept = new Set(chunksOf(out));
    const rewritten = chunksBefore.filter((file) => !kept.has(file));
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.filter((file) => !holdingLetGo.has(file))).toEqual([]);
  });
});
