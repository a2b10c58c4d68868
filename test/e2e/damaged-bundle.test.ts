import { copyFileSync, readdirSync, readFileSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/answerer.ts';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { startPreview } from '../../src/preview/preview-server.ts';
import { startWorkerdPreview } from '../../src/preview/workerd-preview.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * Damage is found, not served (issue 36): every bundle file but the manifest is named by the hash of
 * its bytes, so a flipped byte or a cut file is refused when the preview opens the build, naming the
 * file, and where code runs at the edge a file that does not match its name is a 500 naming it.
 */
describe('a damaged query bundle', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  let folder: string;
  const bundleFile = (under: string) => {
    const name = readdirSync(path.join(folder, 'bundle', under)).filter((entry) => entry.endsWith('.bin')).sort()[0]!;
    return { file: path.join(folder, 'bundle', under, name), name: `bundle/${under}/${name}` };
  };
  /** Damages a file for the length of `body`, then puts it back. */
  const whileDamaged = async (file: string, damage: (file: string) => void, body: () => Promise<void>) => {
    const saved = path.join(temp.path, 'saved');
    copyFileSync(file, saved);
    damage(file);
    try {
      await body();
    } finally {
      copyFileSync(saved, file);
    }
  };
  const flipByte = (file: string) => {
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes[bytes.length - 3]! ^ 0x01, bytes.length - 3);
    writeFileSync(file, bytes);
  };
  const cut = (file: string) => truncateSync(file, Math.floor(readFileSync(file).length / 2));

  beforeAll(async () => {
    const input = path.join(temp.path, 'in.ndjson');
    writeFileSync(input, ndjson(Array.from({ length: 200 }, (_, i) => clientRecord(i + 1))));
    await build(resolveBuildOptions({ input: [input], out, baseUrl: 'http://mirror.test' }));
    folder = realpathSync(out);
  });
  afterAll(() => temp.remove());

  it.each([
    ['a flipped byte in a client chunk', 'clients', flipByte],
    ['a cut key fragment', 'keys', cut],
    ['a flipped byte in a registrant pack', 'registrants', flipByte],
    ['a cut registrant column', 'registrants/columns', cut],
  ] as const)('%s: the preview refuses to start, naming the file, in Node and in workerd', async (_name, under, damage) => {
    const { file, name } = bundleFile(under);
    await whileDamaged(file, damage, async () => {
      await expect(startPreview({ dir: out, port: 0 })).rejects.toThrow(`${name}: its bytes`);
      await expect(startWorkerdPreview({ dir: out, port: 0 })).rejects.toThrow(`${name}: its bytes`);
    });
    const preview = await startPreview({ dir: out, port: 0 });
    expect((await fetch(`${preview.url}/api/v1/clients/`)).status).toBe(200);
    await preview.close();
  }, 60_000);

  it('read where code runs, a file that does not match its name is a 500 naming it, never an answer', async () => {
    const { file, name } = bundleFile('clients');
    const read = async (wanted: string) => readFileSync(path.join(folder, 'bundle', wanted));
    await whileDamaged(file, flipByte, async () => {
      const reply = await createAnswerer(read).answer('GET', '/api/v1/clients/');
      expect(reply.status).toBe(500);
      expect(JSON.parse(reply.body).detail).toContain(`${name}: its bytes`);
    });
  });

  it('a file gone while the manifest is the same is a 500 naming it; a read that never ends is a 500 in time', async () => {
    const { name } = bundleFile('clients');
    const gone = await createAnswerer(async (wanted) => (`bundle/${wanted}` === name ? undefined : readFileSync(path.join(folder, 'bundle', wanted)))).answer('GET', '/api/v1/clients/');
    expect([gone.status, JSON.parse(gone.body).detail]).toEqual([500, `Internal error: ${name}: the query bundle names this file, but the build has none.`]);
    const hanging = createAnswerer(async (wanted) => (`bundle/${wanted}` === name ? new Promise<never>(() => {}) : readFileSync(path.join(folder, 'bundle', wanted))), { readMs: 200 });
    const late = await hanging.answer('GET', '/api/v1/clients/');
    expect([late.status, JSON.parse(late.body).detail]).toEqual([500, `Internal error: ${name}: not read within 0.2 s.`]);
  });

  it('a damaged new build is not served: the preview goes on answering from the last good one', async () => {
    const preview = await startPreview({ dir: out, port: 0 });
    try {
      const before = await (await fetch(`${preview.url}/api/v1/clients/?page=2`)).text();
      const input = path.join(temp.path, 'in.ndjson');
      writeFileSync(input, ndjson(Array.from({ length: 201 }, (_, i) => clientRecord(i + 1))));
      // Damaged as it is written, and not checked: the switch comes with the damage in place.
      const damage = { file: 'bundle/clients/1.bin', body: 'not the bytes its name says' };
      await build(resolveBuildOptions({ input: [input], out, baseUrl: 'http://mirror.test', skipCheck: true }), undefined, { faults: [damage] });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await (await fetch(`${preview.url}/api/v1/clients/?page=2`)).text()).toBe(before);
      expect((await fetch(`${preview.url}/api/v1/clients/201/`)).status).toBe(404);
    } finally {
      await preview.close();
    }
  }, 60_000);
});
