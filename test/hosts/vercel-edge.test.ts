import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { CLI_FILE_LIMIT, fileCountNote, MATCHER, vercelEdge } from '../../src/hosts/vercel-edge/vercel-edge.ts';
import { sourceProgram } from '../support/edge-programs.ts';
import { emitHost } from '../support/emit-host.ts';
import { hostSuite } from '../support/host-suite.ts';
import { sendRaw } from '../support/http.ts';
import { tempFolder } from '../support/temp-folder.ts';
import { startVercelProject, type VercelProject } from '../support/vercel-edge-project.ts';

/**
 * The Vercel project that `npm run emit -- vercel-edge` writes, run as Vercel runs it: its Routing
 * Middleware in Vercel's edge runtime (the `edge-runtime` package), for the paths its `config.matcher`
 * matches, and its `public/` folder from a static file server (test/support/vercel-edge-project.ts).
 * The shared suite sends every case of the exact sets to it: it answers by contract section 9.
 */

/** Vercel's limit of Routing Middleware code after gzip on Hobby ("1 MB"; 2 MB on Pro), read as the smaller million. */
const HOBBY_MIDDLEWARE_BYTES = 1_000_000;

/** Every file under a folder, as paths relative to it with `/`. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

const projects = new Map<string, VercelProject>();

hostSuite(
  {
    name: vercelEdge.name,
    profile: 'exact',
    gaps: vercelEdge.gaps,
    start: async (dir, scratch) => {
      const project = await startVercelProject(emitHost(vercelEdge, dir, scratch));
      projects.set(scratch, project);
      return project;
    },
  },
  (served) => {
    it('emits a project of the middleware, vercel.json and a copy of the bundle, and nothing else', () => {
      const { scratch, dir } = served('exact-3k');
      const bundle = filesUnder(path.join(dir, 'bundle'));
      expect(filesUnder(scratch)).toEqual(['middleware.js', ...bundle.map((file) => `public/bundle/${file}`), 'vercel.json'].sort());
      for (const file of bundle) expect(readFileSync(path.join(scratch, 'public/bundle', file)).equals(readFileSync(path.join(dir, 'bundle', file))), file).toBe(true);
      expect(JSON.parse(readFileSync(path.join(scratch, 'vercel.json'), 'utf8'))).toMatchObject({ framework: null, outputDirectory: 'public' });
    });

    it('runs the Fetch handler that the sources make (runtime/fetch-handler.ts and the answerer, bundled), as the Netlify Edge Function does', () => {
      const program = sourceProgram('fetch-handler');
      const middleware = readFileSync(path.join(served('exact-3k').scratch, 'middleware.js'), 'utf8');
      expect(middleware.endsWith(program)).toBe(true);
      // A literal `export const config`, which Vercel reads from the source without running it.
      expect(middleware).toContain(`\nexport const config = { matcher: [${JSON.stringify(MATCHER)}] };\n`);
    });

    it("stays within Hobby's 1 MB of gzipped middleware", () => {
      const gzipped = gzipSync(readFileSync(path.join(served('exact-3k').scratch, 'middleware.js')), { level: 9 }).length;
      expect(gzipped).toBeLessThan(HOBBY_MIDDLEWARE_BYTES);
    });

    it('says in middleware.js how many files the deploy uploads, against the CLI limit', () => {
      const { scratch } = served('exact-3k');
      const bundleFiles = filesUnder(path.join(scratch, 'public')).length;
      expect(readFileSync(path.join(scratch, 'middleware.js'), 'utf8')).toContain(`\n// ${fileCountNote(bundleFiles)}\n`);
      expect(fileCountNote(bundleFiles)).toMatch(/: it fits\.$/);
      expect(fileCountNote(CLI_FILE_LIMIT - 1)).toMatch(/too many: the deploy is refused/);
    });

    it('leaves the bundle to the static files: the matcher runs the middleware for every other path', async () => {
      const { url, scratch } = served('exact-3k');
      const { matcher } = projects.get(scratch)!;
      for (const target of ['/', '/api/v1/clients/', '/api/v1/registrants/1/', '/bundle', '/bundles/x', '/api/bundle/']) expect(matcher.test(target), target).toBe(true);
      for (const target of ['/bundle/manifest.json', '/bundle/clients/1.bin']) expect(matcher.test(target), target).toBe(false);
      const manifest = await sendRaw(url, 'GET', '/bundle/manifest.json');
      expect(manifest.status).toBe(200);
      expect(manifest.body.equals(readFileSync(path.join(scratch, 'public/bundle/manifest.json')))).toBe(true);
    });

    it("answers HEAD with the GET answer's status and headers and no body at all", async () => {
      const { url, scratch } = served('exact-3k');
      const { runtime } = projects.get(scratch)!;
      for (const target of ['/api/v1/clients/?client_name=bank&page_size=10', '/api/v1/clients/?page=999', '/nowhere/']) {
        const [get, head] = await Promise.all(['GET', 'HEAD'].map((method) => runtime.dispatchFetch(`${url}${target}`, { method })));
        expect(await get!.text(), target).not.toBe('');
        expect([head!.status, [...head!.headers]]).toEqual([get!.status, [...get!.headers]]);
        expect(head!.body, target).toBeNull();
      }
    });

    it('answers 500 {"detail":"Internal error."}, with the API\'s headers, when the bundle cannot be read', async () => {
      const { scratch, map } = served('exact-3k');
      // The project without its public/ folder: every read of the bundle is a 404.
      const bare = tempFolder('mirror-vercel-edge-bare-');
      for (const file of ['middleware.js', 'vercel.json']) copyFileSync(path.join(scratch, file), path.join(bare.path, file));
      const project = await startVercelProject(bare.path);
      try {
        const response = await sendRaw(project.url, 'GET', '/api/v1/clients/?client_name=bank');
        expect([response.status, response.body.toString()]).toEqual([500, '{"detail":"Internal error."}']);
        for (const [name, value] of Object.entries(map.headers)) expect(response.headers[name.toLowerCase()], name).toBe(value);
      } finally {
        await project.stop();
        bare.remove();
      }
    });
  },
);
