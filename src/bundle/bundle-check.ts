import { BUNDLE_FOLDER, keyFragmentFile, orderFragmentFile, registrantKeyFile } from './bundle-manifest.ts';
import { BundleFileError, checkContent } from './content-names.ts';
import { QueryBundle, type ReadFile } from './query-bundle.ts';

/**
 * Every file of a build's query bundle checked against the hash that names it (content-names.ts),
 * before a reader answers from it: a damaged or missing file is a BundleFileError naming it. The
 * preview checks the bundle it opens (on start and on each switch to a new build); an edge instance
 * checks each file as it reads it (query-bundle.ts). Undefined when the build has no bundle.
 */
export async function checkBundle(read: ReadFile): Promise<{ files: number; bytes: number } | undefined> {
  const bundle = await QueryBundle.open(read);
  if (bundle === undefined) return undefined;
  const names = await bundleFileNames(bundle);
  let bytes = 0;
  // A few reads at a time: the hashes run beside the reads, and memory holds a few files, not all.
  let next = 0;
  const reader = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      const file = `${BUNDLE_FOLDER}${name}`;
      const data = await read(name);
      if (data === undefined) throw new BundleFileError(file, 'missing', 'the query bundle names this file, but the build has none');
      await checkContent(file, data);
      bytes += data.length;
    }
  };
  await Promise.all(Array.from({ length: 4 }, reader));
  return { files: names.length + 1, bytes };
}

/** Every file a manifest names, under bundle/ (not the manifest itself), the chunks' and the packs' from their directories (read, and checked). */
export async function bundleFileNames(bundle: QueryBundle): Promise<string[]> {
  const { manifest } = bundle;
  const [chunks, packs] = await Promise.all([bundle.chunkDirectory(), bundle.packDirectory()]);
  return [
    manifest.chunks.file,
    ...Array.from({ length: chunks.count }, (_, k) => chunks.file(k)),
    ...manifest.segments.flatMap((segment) => segment.keys.hashes.map((_, k) => keyFragmentFile(segment, k))),
    ...(['name', 'date'] as const).flatMap((field) => manifest.orders[field].map((_, k) => orderFragmentFile(manifest.orders, field, k))),
    manifest.registrantPacks.file,
    ...Array.from({ length: packs.count }, (_, k) => packs.file(k)),
    ...Object.values(manifest.registrantColumns),
    ...(manifest.overlay === undefined ? [] : [manifest.overlay.file]),
    ...manifest.registrantKeys.hashes.map((_, k) => registrantKeyFile(manifest.registrantKeys, k)),
  ];
}
