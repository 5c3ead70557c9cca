// A generation's serving database built incrementally (domains/servingDatabase.ts): only the load
// steps whose Parquet files changed since the parent generation's, and the steps after them, are
// rebuilt; the rest is carried over from the parent's file. Checked against a full build of the same
// files table by table (row count and a checksum of every row, by a separate query), on the sample
// and after changing a shared source (Eurostat: macro and energy) and a source another domain depends
// on (agri-food: trade). Each change is made, then undone (the sample's own files put back): the
// build that undoes it is incremental too and must equal the sample's full build, so that one full
// build of the sample is the reference of every case (not one more full build per case). That build
// is the run's sample snapshot's own (buildSampleSnapshot's, in full, by this code), carried into the
// first generation as a start leaves it, rather than a second full build of the same files here. Also:
// code built by another release forces a full build, the parent's file is never written, and a crash
// in the middle of an incremental build publishes nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { defineDomain, type Domain } from '../../domains/contract.ts';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf, loadSteps } from '../../domains/registry.ts';
import { buildServingDatabase, hasServingDatabase, relationNames, SERVING_FILE, SERVING_MANIFEST, type ServingBuild } from '../../domains/servingDatabase.ts';
import { Database } from '../../engine/database.ts';
import { currentGeneration, readCurrentId } from '../../engine/generation.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import { recoverAtStart, withNewGeneration } from '../../ingest/generations.ts';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { buildSampleSnapshot, copySampleSnapshot } from '../http/sample-app.ts';
import { ptpBatches, tempDir } from './helpers.ts';

/**
 * Row count and checksum of every table (or of `only`'s), and the columns of each, of a serving
 * database file: read by this test's own queries.
 */
async function tableSums(file: string, only?: readonly string[]): Promise<Map<string, string>> {
  const db = await Database.open({ file, readOnly: true });
  try {
    const out = new Map<string, string>();
    const tables = await db.all(`
      SELECT t.table_name AS name, string_agg(c.column_name || ' ' || c.data_type, ', ' ORDER BY c.column_index) AS columns
      FROM duckdb_tables() t JOIN duckdb_columns() c ON c.table_oid = t.table_oid
      WHERE NOT t.internal AND NOT t.temporary GROUP BY t.table_name ORDER BY t.table_name`);
    for (const { name, columns } of tables) {
      if (only !== undefined && !only.includes(String(name))) continue;
      const [sums] = await db.all(`SELECT count(*)::VARCHAR AS n, coalesce(sum(hash(t)), 0)::VARCHAR AS h FROM main."${String(name)}" t`);
      out.set(String(name), `${String(columns)} | ${String(sums!.n)} rows | ${String(sums!.h)}`);
    }
    if (only !== undefined) return out;
    for (const { name } of await db.all(`SELECT view_name AS name FROM duckdb_views() WHERE NOT internal AND NOT temporary`)) out.set(`view ${String(name)}`, '');
    return out;
  } finally {
    await db.close();
  }
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

async function manifestOf(dir: string): Promise<{ code: string; build: ServingBuild }> {
  return JSON.parse(await readFile(join(dir, SERVING_MANIFEST), 'utf8')) as { code: string; build: ServingBuild };
}

/** Rewrites a Parquet file of a scratch folder as an ingest does (a new file renamed over the link), without about a fifth of its rows (one at least). */
async function dropSomeRows(scratch: string, name: string): Promise<void> {
  const file = join(scratch, name);
  const db = await Database.open();
  try {
    const [{ n: before }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlStringLiteral(file)})`) as [{ n: number }];
    // The row with the greatest hash goes too, so a small file loses one at least.
    const rows = `read_parquet(${sqlStringLiteral(file)})`;
    await db.run(`COPY (SELECT * FROM ${rows} t WHERE hash(t) % 5 <> 0 AND hash(t) < (SELECT max(hash(u)) FROM ${rows} u)) TO ${sqlStringLiteral(`${file}.new`)} (FORMAT PARQUET)`);
    const [{ n: kept }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlStringLiteral(`${file}.new`)})`) as [{ n: number }];
    assert.ok(kept < before && kept > 0, `${name}: ${kept} of ${before} rows kept`);
  } finally {
    await db.close();
  }
  await rename(`${file}.new`, file);
}

/** Rewrites a Parquet file of a scratch folder as an ingest does, with the bytes of the file of that name in `from`. */
async function restoreFile(scratch: string, name: string, from: string): Promise<void> {
  await copyFile(join(from, name), join(scratch, `${name}.new`));
  await rename(join(scratch, `${name}.new`), join(scratch, name));
}

/**
 * Publishes a generation whose only change is `files` rewritten (without some rows, or put back from
 * `restoreFrom`), its serving database built as bin/ingest.ts builds it.
 */
async function publishChange(dataDir: string, domains: readonly Domain[], files: readonly string[], restoreFrom?: string): Promise<{ dir: string; build: ServingBuild }> {
  let build: ServingBuild | undefined;
  await withNewGeneration(dataDir, { command: `test change ${files.join(' ')}`, prepare: async (scratch) => {
    build = await buildServingDatabase(domains, scratch);
  } }, async (scratch) => {
    for (const file of files) await (restoreFrom === undefined ? dropSomeRows(scratch, file) : restoreFile(scratch, file, restoreFrom));
  });
  return { dir: currentGeneration(dataDir).dir, build: build! };
}

describe('incremental serving database on the sample', () => {
  let dataDir: string;
  let sampleDir: string;
  before(async () => {
    // The run's shared sample (read only), with its serving database; built here when run alone.
    const shared = process.env.SAMPLE_SNAPSHOT_DIR ? resolve(process.env.SAMPLE_SNAPSHOT_DIR) : await tempDirUntilExit('incremental-sample-build-');
    sampleDir = await buildSampleSnapshot(shared);
    dataDir = join(await tempDir('incremental-'), 'parquet');
    await copySampleSnapshot(sampleDir, dataDir);
  });

  test('a changed source rebuilds its domains and their dependents only, and every table equals a full build', async () => {
    // The reference of every case below: the sample's own files, built from nothing by this code.
    assert.equal(await hasServingDatabase(sampleDir), true);
    const sampleBuild = (await manifestOf(sampleDir)).build;
    assert.equal(sampleBuild.mode, 'full');
    assert.deepEqual(sampleBuild.rebuilt, loadSteps(DOMAINS).map((step) => step.name));
    const full = await tableSums(join(sampleDir, SERVING_FILE));
    // Into a first generation, as a start leaves it, with that serving database (the generation's
    // files are links to the same ones, so it is valid for them): the parent of the builds below.
    await recoverAtStart(dataDir, () => {});
    const first = currentGeneration(dataDir).dir;
    for (const name of [SERVING_FILE, SERVING_MANIFEST]) await rename(join(dataDir, name), join(first, name));
    assert.equal(await hasServingDatabase(first), true);

    // Nothing changed: the parent's file carried over whole.
    const same = await publishChange(dataDir, DOMAINS, []);
    assert.deepEqual(same.build, { mode: 'incremental', from: basename(first), rebuilt: [] });
    assert.deepEqual(await tableSums(join(same.dir, SERVING_FILE)), full);

    // By the domain declarations: macro and energy use the Eurostat tables, nothing depends on either;
    // trade depends on agri-food. The import records change with every ingest.
    const cases = [
      { files: ['estat_observations.parquet', 'imports.parquet'], rebuilt: ['imports', 'shared:eurostat', 'domain:macro', 'domain:energy'], changes: ['estat_observations', 'energy_balance'] },
      { files: ['agrifood_cereals_prices.parquet'], rebuilt: ['domain:agrifood', 'domain:trade'], changes: ['agri_latest'] },
    ];
    let parent = same.dir;
    let parentSums = full;
    /**
     * The next generation, with `files` changed (dropped rows, or the sample's put back), built
     * incrementally from its parent, whose file is left as it was; the sums of its tables (of the
     * changed ones only, unless `all`).
     */
    const publishIncremental = async (c: (typeof cases)[number], options: { restoreFrom?: string; all?: boolean } = {}) => {
      const parentFile = join(parent, SERVING_FILE);
      const parentHash = await sha256(parentFile);
      const next = await publishChange(dataDir, DOMAINS, c.files, options.restoreFrom);
      assert.deepEqual(next.build, { mode: 'incremental', from: basename(parent), rebuilt: c.rebuilt });
      assert.equal(await hasServingDatabase(currentGeneration(dataDir).dir), true);
      // The parent generation's file is copied, never written.
      assert.equal(await sha256(parentFile), parentHash);
      assert.equal(await hasServingDatabase(parent), true);
      const incremental = await tableSums(join(next.dir, SERVING_FILE), options.all ? undefined : c.changes);
      for (const table of c.changes) assert.ok(incremental.has(table), `${table} in the build after ${c.files.join(', ')}`);
      // The change reached the rebuilt tables (so a comparison of them compares something new); the
      // parent's sums are those taken when it was published (its file unchanged since: the hash above).
      for (const table of c.changes) assert.notEqual(incremental.get(table), parentSums.get(table), `${table} after ${c.files.join(', ')}`);
      parent = next.dir;
      parentSums = incremental;
      return incremental;
    };
    for (const c of cases) {
      await publishIncremental(c);
      // Undone: the sample's files again, so the incremental build must equal the full one, table by table.
      const undone = await publishIncremental(c, { restoreFrom: sampleDir, all: true });
      assert.deepEqual([...undone.keys()], [...full.keys()]);
      for (const [table, sums] of full) assert.equal(undone.get(table), sums, `${table} after ${c.files.join(', ')} changed and put back`);
    }
  });
});

/** The ingest CLI in this process, building the serving database before publication as bin/ingest.ts does. */
async function ingestViaCli(args: string[], prepare: (scratch: string) => Promise<void>): Promise<number> {
  const lines: string[] = [];
  const code = await runIngestCli(args, ingestCommandsOf(DOMAINS), { log: (line) => lines.push(line), prepare });
  assert.equal(code, 0, lines.join('\n'));
  return code;
}

/** The ingest CLI in a child that builds the serving database and is killed at `step`. */
function ingestKilledAt(step: string, args: string[]): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('test/snapshot/servingDriver.ts'), step, ...args], {
      cwd: projectRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ signal, stderr }));
  });
}

describe('incremental serving database: code, crashes, attribution', () => {
  test('a crash in the middle of an incremental build publishes nothing; the ingest then rebuilds PTP alone; code built by another release forces a full build', async () => {
    const { first, second } = await ptpBatches();
    const dataDir = join(await tempDir('incremental-ptp-'), 'parquet');
    const prepare = async (scratch: string) => {
      await buildServingDatabase(DOMAINS, scratch);
    };
    const lines: string[] = [];
    assert.equal(await ingestViaCli(['ptp', first, '--data-dir', dataDir], prepare), 0);
    assert.equal((await manifestOf(currentGeneration(dataDir).dir)).build.mode, 'full');
    const served = readCurrentId(dataDir)!;
    const servedDir = currentGeneration(dataDir).dir;
    const servedHash = await sha256(join(servedDir, SERVING_FILE));

    const killed = await ingestKilledAt('serving-steps-dropped', ['ptp', second, '--data-dir', dataDir]);
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.equal(readCurrentId(dataDir), served);
    assert.equal(await sha256(join(servedDir, SERVING_FILE)), servedHash);
    assert.equal(await hasServingDatabase(currentGeneration(dataDir).dir), true);
    assert.equal(await recoverAtStart(dataDir, (line) => lines.push(line)), true);
    assert.ok(lines.some((line) => /removed the scratch folder/.test(line)), lines.join('\n'));

    assert.equal(await ingestViaCli(['ptp', second, '--data-dir', dataDir], prepare), 0);
    const incremental = await manifestOf(currentGeneration(dataDir).dir);
    assert.deepEqual(incremental.build, { mode: 'incremental', from: served, rebuilt: ['imports', 'domain:ptp'] });

    // The current generation's file as another release would have left it: a different code hash.
    const current = currentGeneration(dataDir).dir;
    const manifest = JSON.parse(await readFile(join(current, SERVING_MANIFEST), 'utf8')) as { code: string };
    assert.notEqual(manifest.code, 'another release');
    await writeFile(join(current, SERVING_MANIFEST), JSON.stringify({ ...manifest, code: 'another release' }));
    const next = await publishChange(dataDir, DOMAINS, ['ptp_crashes.parquet']);
    assert.equal(next.build.mode, 'full');
    assert.deepEqual(next.build.rebuilt, loadSteps(DOMAINS).map((step) => step.name));
    assert.match(next.build.reason ?? '', /no serving database built by this code/);
    assert.equal(await hasServingDatabase(currentGeneration(dataDir).dir), true);
    // And the build after it is incremental again.
    assert.equal((await publishChange(dataDir, DOMAINS, ['ptp_crashes.parquet'])).build.mode, 'incremental');
  });

  test('a load step that writes into another step\'s table is not rebuilt alone: the builds stay full', async () => {
    const flat = await tempDir('incremental-entangled-');
    const owner = defineDomain({ name: 'owner', tags: [], routes: [], sources: [], async load(db) {
      await db.run('CREATE TABLE owned (x INTEGER)');
    } });
    const intruder = defineDomain({ name: 'intruder', tags: [], routes: [], sources: [], dependsOn: ['owner'], async load(db) {
      await db.run('INSERT INTO owned VALUES (1)');
    } });
    const build = await buildServingDatabase([owner, intruder], flat);
    assert.equal(build.mode, 'full');
    assert.match(build.reason ?? '', /step domain:intruder replaced, dropped or wrote to table main\.owned/);
    assert.equal((JSON.parse(await readFile(join(flat, SERVING_MANIFEST), 'utf8')) as { steps: unknown }).steps, null);
  });

  test('a step reading another step\'s table without declaring it is rebuilt with it', async () => {
    const dataDir = join(await tempDir('incremental-undeclared-'), 'parquet');
    const writeSource = async (scratch: string, value: number) => {
      const db = await Database.open();
      await db.run(`COPY (SELECT ${value} AS x) TO ${sqlStringLiteral(join(scratch, 'source_values.parquet'))} (FORMAT PARQUET)`);
      await db.close();
    };
    const reader = defineDomain({ name: 'reader', tags: [], routes: [], sources: [], async load(db, dir) {
      await db.run(`CREATE TABLE source_values AS SELECT * FROM read_parquet(${sqlStringLiteral(join(dir, 'source_values.parquet'))})`);
    } });
    // Reads reader's table but declares no dependency.
    const rollup = defineDomain({ name: 'rollup', tags: [], routes: [], sources: [], async load(db) {
      await db.run('CREATE TABLE doubled AS SELECT x * 2 AS x2 FROM source_values');
    } });
    const other = defineDomain({ name: 'other', tags: [], routes: [], sources: [], async load(db) {
      await db.run('CREATE TABLE constant AS SELECT 1 AS source_values');
    } });
    const domains = [reader, rollup, other];
    const builds: ServingBuild[] = [];
    const ids: (string | null)[] = [];
    for (const value of [1, 2]) {
      const run = await withNewGeneration(dataDir, { command: 'test', prepare: async (scratch) => {
        builds.push(await buildServingDatabase(domains, scratch));
      } }, (scratch) => writeSource(scratch, value));
      ids.push(run.generation);
    }
    assert.equal(builds[0]!.mode, 'full');
    // "other" names source_values only as a column: not a reader of reader's table.
    assert.deepEqual(builds[1], { mode: 'incremental', from: ids[0], rebuilt: ['domain:reader', 'domain:rollup'] });
    const sums = await tableSums(join(currentGeneration(dataDir).dir, SERVING_FILE));
    assert.match(sums.get('doubled')!, /\| 1 rows \|/);
    const db = await Database.open({ file: join(currentGeneration(dataDir).dir, SERVING_FILE), readOnly: true });
    try {
      assert.deepEqual(await db.all('SELECT x2 FROM doubled'), [{ x2: 4 }]);
    } finally {
      await db.close();
    }
  });

  test('the relations a statement reads are the names after FROM, JOIN and the like, not its columns', () => {
    const names = relationNames(`SELECT imports, trade_balance FROM trade_rows t, wdi_countries w JOIN agri_latest USING (country)
      WHERE x IN (SELECT y FROM estat_observations) AND label = 'from fake_table'`);
    for (const name of ['trade_rows', 'agri_latest', 'wdi_countries', 'estat_observations']) assert.ok(names.has(name), name);
    for (const name of ['imports', 'trade_balance', 'fake_table', 'label']) assert.ok(!names.has(name), name);
  });
});
