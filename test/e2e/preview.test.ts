import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { resolveBuildOptions } from '../../src/config.ts';
import { startPreview, type RunningPreview } from '../../src/preview/preview-server.ts';
import { sendRaw } from '../support/http.ts';
import { clientRecord, ndjson } from '../support/records.ts';
import { tempFolder } from '../support/temp-folder.ts';

describe('preview', () => {
  const temp = tempFolder();
  const out = path.join(temp.path, 'out');
  const input = path.join(temp.path, 'in.ndjson');
  let preview: RunningPreview;

  const rebuild = async (ids: number[]) => {
    writeFileSync(input, ndjson(ids.map((id) => clientRecord(id))));
    await build(resolveBuildOptions({ input: [input], out, baseUrl: 'http://localhost:1' }));
  };

  beforeAll(async () => {
    writeFileSync(path.join(temp.path, 'secret.json'), '{"secret":true}');
    await rebuild([1, 2, 3]);
    preview = await startPreview({ dir: out, port: 0 });
  });
  afterAll(async () => {
    await preview?.close();
    temp.remove();
  });

  const get = (target: string, method = 'GET') => sendRaw(preview.url, method, target);

  it('answers HEAD with the headers of GET and no body', async () => {
    const [head, body] = [await get('/api/v1/clients/1/', 'HEAD'), await get('/api/v1/clients/1/')];
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(body.body.length));
    expect(head.headers['content-type']).toBe('application/json');
  });

  it('never lists a folder nor serves the build files by their own paths', async () => {
    for (const target of ['/', '/pages/', '/pages/none/none/1.json', '/rewrite-map.json', '/clients/none/1.json', '/api/v1/clients/1/../']) {
      const response = await get(target);
      expect(response.status, target).toBe(404);
      expect(response.body.toString(), target).toBe('{"detail":"Not found."}');
    }
  });

  it('never serves a file outside the folder, whatever the encoding', async () => {
    for (const target of ['/../secret.json', '/api/v1/clients/..%2F..%2F..%2Fsecret.json', '/api/v1/clients/%2e%2e/%2e%2e/secret.json', '/..\\secret.json']) {
      const response = await get(target);
      expect(response.status, target).toBe(404);
      expect(response.body.toString(), target).not.toContain('secret');
    }
  });

  it('answers a record id that was not built with the JSON 404 and the API headers', async () => {
    const response = await get('/api/v1/registrants/12345/?format=api');
    expect(response.status).toBe(404);
    expect(response.headers).toMatchObject({ 'content-type': 'application/json', vary: 'Accept', allow: 'GET' });
    expect(response.body.toString()).toBe('{"detail":"Not found."}');
  });

  it('redirects a missing trailing slash with the API headers', async () => {
    const response = await get('/api/v1/registrants/900?format=json');
    expect(response.status).toBe(301);
    expect(response.headers).toMatchObject({ location: '/api/v1/registrants/900/?format=json', allow: 'GET' });
  });

  it('serves a new build of the same folder without a restart', async () => {
    expect((await get('/api/v1/clients/4/')).status).toBe(404);
    await rebuild([1, 2, 3, 4]);
    await expect.poll(async () => (await get('/api/v1/clients/4/')).status, { timeout: 5000 }).toBe(200);
    const page = JSON.parse((await get('/api/v1/clients/')).body.toString()) as { count: number };
    expect(page.count).toBe(4);
  });

  it('explains a folder that holds no build', async () => {
    await expect(startPreview({ dir: temp.path, port: 0 })).rejects.toThrow(/holds no rewrite-map\.json: build it first/);
  });
});
