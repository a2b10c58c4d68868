import { performance } from 'node:perf_hooks';
import type { BuildOptions } from './config.ts';
import type { InputProblem } from './errors.ts';
import { ORDERINGS } from './contract.ts';
import { findInputFiles } from './ingest/find-input-files.ts';
import { loadRecords } from './ingest/load-records.ts';
import { filterChoices } from './choices/filter-choices.ts';
import { planFilter } from './plan/filter-plans.ts';
import { listRoute } from './plan/rewrite-map.ts';
import { createRewriteMap } from './plan/rewrite-map-builder.ts';
import { bundleFileCount } from './plan/bundle-layout.ts';
import { ORDER_PLACES } from './bundle/order-fragments.ts';
import { REGISTRANT_COLUMNS } from './bundle/registrant-columns.ts';
import { readRegistrantFile, splitRegistrantFiles } from './ingest/registrant-file.ts';
import { siteFileCount, siteUnits } from './plan/site-units.ts';
import { produceSite } from './produce/produce-site.ts';
import { silentProgress, type Progress } from './report/progress.ts';
import { timedStages } from './report/timed-stages.ts';
import { checkBundleAnswers } from './check/bundle-answers.ts';
import { checkRecordsInAreRecordsOut } from './check/records-balance.ts';
import { RecordStore } from './store/record-store.ts';
import { serve } from './hosts/serve/serve.ts';
import { clearChangeLists } from './write/manifest.ts';
import { loadPreviousManifest } from './previous/previous-manifest.ts';
import { openOutputSlot } from './write/output-slot.ts';
import { buildFingerprint, readBuildRecord, writeBuildRecord } from './write/build-record.ts';
import type { BuildFault } from './produce/thread-settings.ts';

/** What a build gets wrong on purpose, for tests: failing file system calls, or a broken body. */
export interface BuildWorld {
  faults?: BuildFault[];
}

export interface BuildSummary {
  /** The output path, absolute: a link to `buildDir`. */
  out: string;
  /** The build folder written, beside the output, absolute. */
  buildDir: string;
  inputFiles: number;
  recordsRead: number;
  /** Invalid records left out (with --skip-invalid), and the problems listed for them. */
  skipped: number;
  skippedProblems: InputProblem[];
  skippedProblemsTruncated: boolean;
  clients: number;
  replacedClients: number;
  registrants: number;
  conflictedRegistrants: number;
  pages: number;
  files: number;
  bytes: number;
  /** Files written with new bytes, linked unchanged from the previous build, and gone since it. */
  written: number;
  linked: number;
  removed: number;
  /** Bytes of the files written: what a deploy of the change uploads. */
  bytesWritten: number;
  /**
   * The query bundle (bundle/): its files and bytes, and those written anew: what a deploy to a host
   * that runs the answerer (the Cloudflare Worker's assets, the edge hosts' static files) uploads.
   */
  bundle: { files: number; bytes: number; written: number; bytesWritten: number };
  /** What an interrupted build had left beside the output, removed first. */
  leftoversRemoved: string[];
  seconds: number;
  /** Seconds spent in each stage, in order. */
  stages: Record<string, number>;
  /** What the user should know about the settings (a default they may not want), for the caller to show. */
  warnings: string[];
  /** True when the inputs, options and program were those of the current output: nothing was built. */
  upToDate: boolean;
}

/** What a build records of its summary, for a later build with the same fingerprint to report. */
type RecordedCounts = Omit<BuildSummary, 'out' | 'buildDir' | 'written' | 'linked' | 'removed' | 'bytesWritten' | 'leftoversRemoved' | 'seconds' | 'stages' | 'warnings' | 'upToDate'>;

/**
 * The build, top to bottom: find input files -> read and validate records into the store -> plan the
 * site (the rewrite map) -> render every file -> write them into a new folder -> emit the zero-config
 * host files (serve.json) -> check the folder -> switch the output to it. Until the switch, the previous output is untouched; on any failure it stays as it was.
 */
export async function build(options: BuildOptions, reporter: Progress = silentProgress, world: BuildWorld = {}): Promise<BuildSummary> {
  const started = performance.now();
  const { progress, stages } = timedStages(reporter);
  const inputFiles = await findInputFiles(options.inputs);
  const slot = await openOutputSlot(options.out);
  const fingerprint = await buildFingerprint(inputFiles, options);
  const current = slot.previousDir === undefined || options.force ? undefined : readBuildRecord<RecordedCounts>(slot.previousDir);
  if (current?.fingerprint === fingerprint) {
    clearChangeLists(slot.previousDir!);
    await slot.abandon();
    progress.end();
    const seconds = (performance.now() - started) / 1000;
    const bundle = { ...(current.counts.bundle ?? { files: 0, bytes: 0 }), written: 0, bytesWritten: 0 };
    const summary = { out: slot.out, buildDir: slot.previousDir!, written: 0, linked: 0, removed: 0, bytesWritten: 0, bundle, leftoversRemoved: slot.leftovers, seconds, stages: stages() };
    return { ...current.counts, ...summary, warnings: options.warnings, upToDate: true };
  }
  const store = RecordStore.create(slot.storeFile);
  try {
    progress.stage('read');
    const { clientFiles, registrantFiles } = splitRegistrantFiles(inputFiles);
    const loaded = await loadRecords(clientFiles, store, {
      problemLimit: options.problemLimit,
      skipInvalid: options.skipInvalid,
      onProgress: (records, file, fileNumber) =>
        progress.update({ done: records, unit: 'records', detail: inputFiles.length > 1 && file ? `${file} (file ${fileNumber} of ${inputFiles.length})` : file }),
    });
    // The registrants synced from the live list: listed beside those the clients embed.
    for (const file of registrantFiles) {
      const rows = readRegistrantFile(file, options.problemLimit);
      store.transaction(() => rows.forEach((row) => store.addRegistrant(row.id, row.updated, row.fields, true)));
    }
    progress.stage('index');
    store.index(options.filters);
    const counts = store.counts();
    const filters = options.filters.map((name) => planFilter(store, name, filterChoices(name)));
    const map = createRewriteMap({
      baseUrl: options.baseUrl,
      http: options.http,
      formats: options.formats,
      clients: counts.clients,
      registrants: counts.registrants,
      filters: filters.map((filter) => filter.input),
    });
    const filteredPages = filters.reduce((sum, filter) => sum + filter.pages, 0);
    // The clients' record files in ranges of about 4,096 clients, each a unit of a render thread.
    const units = siteUnits(map, store.clientIdBounds(Math.min(64, Math.ceil(counts.clients / 4096))));

    const clientIds = Array.from(store.clientIdsInRange(null, null));
    const registrantIds = Array.from(store.registrantIds());
    const bundleFiles = bundleFileCount(clientIds, counts.clients, registrantIds, { columns: REGISTRANT_COLUMNS.length, orderPlaces: ORDER_PLACES });
    // The records the query bundle is checked on before the switch: the first, middle and last.
    const sampleIds = { client: ends(clientIds), registrant: ends(registrantIds) };

    // The compare and render threads open the store themselves; this connection holds it exclusively.
    store.close();
    if (slot.previousDir !== undefined) {
      progress.stage('compare');
      await loadPreviousManifest(store.file, slot.previousDir);
    }

    progress.stage('write');
    // The configuration of the host that needs no other (`npx serve dist`), listed and linked like every file.
    const hostFiles = serve.emit({ map, dir: slot.buildDir }).map((file) => ({ path: file.name, body: file.text }));
    const total = siteFileCount(map, options.formats, filteredPages, bundleFiles) + hostFiles.length;
    // Each render thread verifies every body it writes (the check), so the folder is not read again.
    const written = await produceSite({
      storeFile: store.file,
      map,
      units,
      formats: options.formats,
      bundle: { choices: { states: filterChoices('client_state')!, countries: filterChoices('client_country')! } },
      extraFiles: hostFiles,
      root: slot.buildDir,
      previousDir: slot.previousDir,
      threads: options.concurrency,
      verify: options.check,
      problemLimit: options.problemLimit,
      faults: world.faults,
      onProgress: (files) => progress.update({ done: files, total, unit: 'files' }),
    });
    store.destroy();
    checkRecordsInAreRecordsOut(loaded, counts, written, options.formats.length);
    if (options.check) written.problems.push(...(await checkBundleAnswers(slot.buildDir, map, options.formats, sampleIds)));
    if (written.problems.length > 0) {
      throw new Error(`the new build fails its check, so it was not published:\n  ${written.problems.join('\n  ')}`);
    }

    const recorded: RecordedCounts = {
      inputFiles: inputFiles.length,
      recordsRead: loaded.recordsRead,
      skipped: loaded.skipped,
      skippedProblems: loaded.problems,
      skippedProblemsTruncated: loaded.problemsTruncated,
      ...counts,
      pages: (listRoute(map).page.last + filteredPages) * ORDERINGS.length * options.formats.length,
      files: written.files,
      bytes: written.bytes,
      bundle: written.bundle,
    };
    writeBuildRecord(slot.buildDir, { fingerprint, counts: recorded });

    progress.stage('switch');
    await slot.commit(options.removePrevious);
    progress.end();
    return {
      ...recorded,
      out: slot.out,
      buildDir: slot.buildDir,
      written: written.written,
      linked: written.linked,
      removed: written.removed,
      bytesWritten: written.bytesWritten,
      leftoversRemoved: slot.leftovers,
      seconds: (performance.now() - started) / 1000,
      stages: stages(),
      warnings: options.warnings,
      upToDate: false,
    };
  } catch (error) {
    progress.end();
    store.destroy();
    await slot.abandon();
    throw error;
  }
}

/** The first, middle and last of some ids (fewer when there are fewer). */
function ends(ids: readonly number[]): number[] {
  return [...new Set([ids[0], ids[ids.length >> 1], ids.at(-1)])].filter((id): id is number => id !== undefined);
}
