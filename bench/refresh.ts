// The refresh measurement: what publishing a new day of one small source costs once a whole tier is
// served. A refresh ingests the source's changed files into a new generation of the tier's snapshot
// and builds its serving database (only the domains that source feeds are rebuilt, the rest carried
// over: domains/servingDatabase.ts); the baseline ingests the same files alone into an empty folder,
// serving database included. Both go through the publishing path bin/ingest.ts takes
// (withNewGeneration with the serving database as `prepare`). The change is the ECB sample's EUR/USD
// file with the next business day appended (what a daily ECB refresh brings). After each round the
// tier's snapshot is rolled back to the generation measured before, so the rest of the run (and the
// next round) sees the prepared data.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildServingDatabase, describeServingBuild, type ServingBuild } from '../domains/servingDatabase.ts';
import { DOMAINS } from '../domains/index.ts';
import { sampleSourcesOf } from '../domains/registry.ts';
import { readCurrentId } from '../engine/generation.ts';
import { rollback, withNewGeneration } from '../ingest/generations.ts';
import type { SampleSource } from '../ingest/sampleSource.ts';
import { REFRESH_SOURCE } from './names.ts';
import { medianBy, TIMED_RUNS } from './stats.ts';

/** The source refreshed (bench/names.ts), and the file of its sample that gets the next day. */
export { REFRESH_SOURCE };
const REFRESH_FILE = 'ecb_exr_usd.csv';

export interface RefreshRun {
  /** The new generation published, serving database included. */
  ms: number;
  servingMs: number;
  build: string;
}

export interface RefreshFigures {
  source: string;
  /** The median refresh of the whole tier's snapshot, and the median ingest of the same files alone into an empty folder. */
  refresh: RefreshRun & { runs: number };
  alone: RefreshRun & { runs: number };
  /** refresh / alone (target: <= 2). */
  ratio: number;
}

/** The sample's last line again with its date moved `days` days on (weekends skipped), appended: a new observation. */
async function appendNextDays(file: string, days: number): Promise<void> {
  const text = await readFile(file, 'utf8');
  const lines = text.trimEnd().split('\n');
  let last = lines.at(-1)!;
  const added: string[] = [];
  for (let day = 0; day < days; day++) {
    const date = /,(\d{4}-\d{2}-\d{2}),/.exec(last)?.[1];
    if (!date) throw new Error(`bench refresh: no date in the last line of ${file}`);
    const next = new Date(`${date}T00:00:00Z`);
    do next.setUTCDate(next.getUTCDate() + 1);
    while (next.getUTCDay() === 0 || next.getUTCDay() === 6);
    last = last.replace(`,${date},`, `,${next.toISOString().slice(0, 10)},`);
    added.push(last);
  }
  await writeFile(file, `${lines.join('\n')}\n${added.join('\n')}\n`);
}

/** Publishes the source's files in sampleDir into a new generation of dataDir, serving database built as bin/ingest.ts builds it; timed. */
async function publish(source: SampleSource, sampleDir: string, dataDir: string): Promise<RefreshRun> {
  let build: ServingBuild | undefined;
  let servingMs = 0;
  const started = performance.now();
  const { generation } = await withNewGeneration(dataDir, {
    command: `bench refresh ${source.name}`,
    prepare: async (scratch) => {
      const servingStarted = performance.now();
      build = await buildServingDatabase(DOMAINS, scratch);
      servingMs = performance.now() - servingStarted;
    },
  }, (scratch) => source.ingest({ dataDir: scratch, sampleDir, log: () => undefined }), (result) => result.files > 0);
  const ms = performance.now() - started;
  if (generation === null || build === undefined) throw new Error(`bench refresh: ${source.name} published nothing from ${sampleDir}`);
  return { ms, servingMs, build: describeServingBuild(build) };
}

/**
 * Measures, on the tier's snapshot in dataDir (every source ingested, its generation current), a
 * refresh of the ECB source with new days against ingesting the same files alone into an empty
 * folder, TIMED_RUNS rounds, medians reported. `sampleDir` is the ECB sample the tier was built from.
 */
export async function measureRefresh(dataDir: string, sampleDir: string, workDir: string, log: (line: string) => void): Promise<RefreshFigures> {
  const source = sampleSourcesOf(DOMAINS).find((s) => s.name === REFRESH_SOURCE);
  if (!source) throw new Error(`bench refresh: no sample source ${REFRESH_SOURCE}`);
  const scratch = await mkdtemp(join(workDir, 'refresh-'));
  try {
    // A generation whose serving database attributes its tables to load steps (one built before incremental builds existed does not).
    await withNewGeneration(dataDir, { command: 'bench refresh (settle)', prepare: async (dir) => {
      log(`refresh: settling the snapshot's serving database (${describeServingBuild(await buildServingDatabase(DOMAINS, dir))})`);
    } }, async () => undefined);
    const base = readCurrentId(dataDir);
    if (base === null) throw new Error(`bench refresh: ${dataDir} has no current generation`);
    const refreshes: RefreshRun[] = [];
    const alones: RefreshRun[] = [];
    for (let round = 1; round <= TIMED_RUNS; round++) {
      const changed = join(scratch, `sample-${round}`);
      await cp(sampleDir, changed, { recursive: true });
      await appendNextDays(join(changed, REFRESH_FILE), round);
      const refresh = await publish(source, changed, dataDir);
      await rollback(dataDir, base);
      const alone = await publish(source, changed, join(scratch, `alone-${round}`, 'parquet'));
      log(`refresh round ${round}: refresh ${(refresh.ms / 1000).toFixed(2)} s (${refresh.build}), alone ${(alone.ms / 1000).toFixed(2)} s`);
      refreshes.push(refresh);
      alones.push(alone);
    }
    const refresh = medianBy(refreshes, (run) => run.ms);
    const alone = medianBy(alones, (run) => run.ms);
    return { source: source.name, refresh: { ...refresh, runs: refreshes.length }, alone: { ...alone, runs: alones.length }, ratio: refresh.ms / alone.ms };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
