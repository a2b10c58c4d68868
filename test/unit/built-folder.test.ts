import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFolderReader } from '../../src/built-folder.ts';
import { tempFolder } from '../support/temp-folder.ts';

/**
 * The one reader of a built folder's query bundle on disk (the preview's answerer, the build's check of
 * a new bundle): a missing file is absent, a failing disk is an error naming the file.
 */
describe('the query bundle of a built folder, read from disk', () => {
  const temp = tempFolder();
  afterAll(() => temp.remove());
  mkdirSync(path.join(temp.path, 'bundle/clients'), { recursive: true });
  writeFileSync(path.join(temp.path, 'bundle/manifest.json'), '{}');
  writeFileSync(path.join(temp.path, 'secret.json'), 'outside');
  const read = bundleFolderReader(temp.path);

  it("reads a file by its name in the bundle folder", async () => {
    expect(Buffer.from((await read('manifest.json'))!).toString()).toBe('{}');
  });

  it('answers undefined for no such file: missing, or a name under a file', async () => {
    expect(await read('clients/1.bin')).toBeUndefined();
    expect(await read('manifest.json/1.bin')).toBeUndefined();
  });

  it('never reads outside the bundle folder', async () => {
    expect(await read('../secret.json')).toBeUndefined();
  });

  it('throws for any other failure, naming the file, rather than calling it missing', async () => {
    // A folder where a file is read: EISDIR, as a disk that fails answers something other than ENOENT.
    await expect(read('clients')).rejects.toThrow(`${path.join(temp.path, 'bundle/clients')}: the query bundle's file cannot be read (EISDIR`);
  });
});
