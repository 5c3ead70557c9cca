// The benchmark's ingest profile: which category each observed Database call falls in, how the
// wall time is split when calls overlap (worked out by hand in comments), the bench's statement observer
// (opt-in, unsubscribable, failures reported, the engine's own methods back once nobody observes) and one real ingest observed end to end.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { timedIngest } from '../../bench/data.ts';
import { categoryOf, splitIngest } from '../../bench/ingestProfile.ts';
import { renderMarkdown, type BenchReport } from '../../bench/report.ts';
import { cardgameSampleSource } from '../../domains/cardgame/ingest/sampleSource.ts';
import { Database } from '../../engine/database.ts';
import { observeStatements, type StatementEvent } from '../../bench/statementObserver.ts';

test('each call falls in one category by its kind and its SQL', () => {
  const sql = (text: string) => categoryOf({ kind: 'run', sql: text });
  assert.equal(categoryOf({ kind: 'open', sql: ':memory:' }), 'open');
  assert.equal(categoryOf({ kind: 'appendRows', sql: 'staging' }), 'append');
  // File readers, in any case, and a FROM of a quoted path.
  assert.equal(sql(`CREATE TABLE t AS SELECT * FROM read_csv('/d/a.csv', header = true)`), 'read');
  assert.equal(sql(`SELECT json FROM read_json_objects('/d/a.json', format = 'array', maximum_object_size = 100)`), 'read');
  assert.equal(sql(`select * from read_json('/d/a.json')`), 'read');
  assert.equal(sql(`INSERT INTO t (a) SELECT a FROM read_parquet('/d/t.parquet')`), 'read');
  assert.equal(categoryOf({ kind: 'all', sql: `SELECT count(*)::INTEGER AS n FROM read_parquet('/d/t.parquet')` }), 'read');
  assert.equal(sql(`SELECT count(*) FROM '/d/t.parquet'`), 'read');
  assert.equal(sql(`COPY t FROM '/d/a.csv'`), 'read');
  // COPY ... TO writes a file, even when it reads one on the way.
  assert.equal(sql(`COPY (SELECT * FROM t ORDER BY a) TO '/d/t.parquet' (FORMAT PARQUET)`), 'write');
  assert.equal(sql(`COPY (SELECT * FROM read_parquet('/d/a.parquet')) TO '/d/b.parquet' (FORMAT PARQUET)`), 'write');
  assert.equal(sql(`COPY t TO '/d/t.csv'`), 'write');
  // Everything else: DDL, merges, checks; a reader's name in a string literal is no read.
  assert.equal(sql('CREATE TABLE t (a INTEGER)'), 'otherSql');
  assert.equal(sql('INSERT INTO t SELECT * FROM staging'), 'otherSql');
  assert.equal(categoryOf({ kind: 'all', sql: `SELECT count(*) AS n FROM t WHERE name = 'read_csv'` }), 'otherSql');
  assert.equal(sql('SET enable_external_access = false'), 'otherSql');
});

test('overlapping calls count once: the parts are shares of the union and add up to the wall time', () => {
  const at = (kind: StatementEvent['kind'], sql: string, startMs: number, endMs: number): StatementEvent => ({ kind, sql, startMs, endMs });
  const events = [
    at('open', ':memory:', 0, 10),
    at('all', `SELECT * FROM read_csv('/a.csv')`, 20, 40),
    at('run', `INSERT INTO t SELECT * FROM read_parquet('/b.parquet')`, 30, 50),
    at('run', 'CREATE TABLE m AS SELECT * FROM t', 45, 60),
    at('run', `COPY m TO '/m.parquet' (FORMAT PARQUET)`, 70, 80),
    at('appendRows', 'staging', 75, 90),
    at('run', 'DROP TABLE m', 95, 120), // clipped to the window's end, 100
  ];
  // Window 0..100, cut at every boundary:
  //   0-10 open 10 | 10-20 nothing (JS 10) | 20-30 read 10 | 30-40 two reads, once: read 10 | 40-45 read 5
  //   45-50 read + other: 2.5 each | 50-60 other 10 | 60-70 JS 10 | 70-75 write 5 | 75-80 write + append: 2.5 each
  //   80-90 append 10 | 90-95 JS 5 | 95-100 other 5
  // open 10; read 10 + 10 + 5 + 2.5 = 27.5; write 5 + 2.5 = 7.5; append 2.5 + 10 = 12.5;
  // other 2.5 + 10 + 5 = 17.5; JS 10 + 10 + 5 = 25; sum 100. Statements: the five run / all calls.
  assert.deepEqual(splitIngest(events, 0, 100), {
    openMs: 10, readMs: 27.5, writeMs: 7.5, appendMs: 12.5, otherSqlMs: 17.5, jsMs: 25, statements: 5,
  });
  // A plain sum of the calls' durations inside the window would be 10 + 20 + 20 + 15 + 10 + 15 + 5 = 95,
  // leaving 5 ms of JS where there are 25.
  // Nothing observed: all of it is JS.
  assert.deepEqual(splitIngest([], 5, 12), { openMs: 0, readMs: 0, writeMs: 0, appendMs: 0, otherSqlMs: 0, jsMs: 7, statements: 0 });
});

test('the observer is opt-in, sees failures, and stops at unsubscribe', async () => {
  const first: StatementEvent[] = [];
  const second: StatementEvent[] = [];
  // Unobserved: nothing is recorded anywhere.
  const before = await Database.open({ connections: 1 });
  await before.run('CREATE TABLE t (a INTEGER)');
  await before.close();
  const engineOwn = [Database.open, Database.prototype.run, Database.prototype.all, Database.prototype.appendRows];

  const stopFirst = observeStatements((event) => first.push(event));
  const stopSecond = observeStatements((event) => second.push(event));
  const db = await Database.open({ connections: 1 });
  try {
    await db.run('CREATE TABLE t (a VARCHAR)');
    await db.appendRows('t', [['x'], ['y']]);
    assert.deepEqual(await db.all('SELECT count(*)::INTEGER AS n FROM t'), [{ n: 2 }]);
    await assert.rejects(db.run('SELECT * FROM no_such_table'));
    stopFirst();
    stopFirst(); // twice is harmless
    await db.run('DROP TABLE t');
    stopSecond();
    await db.run('CREATE TABLE u (a INTEGER)');
  } finally {
    await db.close();
  }
  assert.deepEqual(first.map((e) => [e.kind, e.sql]), [
    ['open', ':memory:'], ['run', 'CREATE TABLE t (a VARCHAR)'], ['appendRows', 't'],
    ['all', 'SELECT count(*)::INTEGER AS n FROM t'], ['run', 'SELECT * FROM no_such_table'],
  ]);
  assert.deepEqual(second.map((e) => e.sql), [...first.map((e) => e.sql), 'DROP TABLE t']);
  for (const event of second) assert.ok(event.endMs >= event.startMs, `${event.kind} ${event.sql}: ends after it starts`);
  // Nobody observes any more: the engine's own methods are back.
  assert.deepEqual([Database.open, Database.prototype.run, Database.prototype.all, Database.prototype.appendRows], engineOwn);
});

test('a real ingest (the card sample) is split over its calls', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(os.tmpdir(), 'ingest-profile-'));
  try {
    const sampleDir = join(dir, 'sample');
    await cardgameSampleSource.generate(sampleDir);
    const figures = await timedIngest(cardgameSampleSource, sampleDir, join(dir, 'parquet'));
    const profile = figures.profile!;
    assert.ok(figures.rows > 0);
    const parts = [profile.openMs, profile.readMs, profile.writeMs, profile.appendMs, profile.otherSqlMs, profile.jsMs];
    for (const part of parts) assert.ok(part >= 0, `every part is non-negative: ${JSON.stringify(profile)}`);
    assert.ok(profile.openMs > 0, 'the ingest opens a database');
    assert.ok(profile.writeMs > 0, 'the snapshot is written with COPY ... TO');
    assert.ok(profile.statements > 0);
    const sum = parts.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - figures.ms) < 1, `the parts (${sum} ms) add up to the wall time (${figures.ms} ms)`);
    // The JavaScript thread was busy some of the wall time, never more.
    const threads = figures.threads!;
    assert.ok(threads.mainThreadBusyMs > 0 && threads.mainThreadBusyMs <= figures.ms + 1, `JS thread busy ${threads.mainThreadBusyMs} ms within (0, wall ${figures.ms}]`);
    assert.ok(threads.processCpuMs > 0, 'the process used CPU');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the report shows each ingest\'s split, and - for reports written before it was measured', async () => {
  // A report of 2026-11-28, written before the profile existed.
  const report = JSON.parse(await readFile(new URL('../../bench/results/2026-11-28-e.json', import.meta.url), 'utf8')) as BenchReport;
  const tier = report.tiers[0];
  const [first, second] = tier.sources;
  first.ingest.profile = { openMs: 12.4, readMs: 100.6, writeMs: 50, appendMs: 0, otherSqlMs: 30.2, jsMs: 7.49, statements: 21 };
  first.ingest.threads = { mainThreadBusyMs: 61.5, processCpuMs: 250.4 };
  const lines = renderMarkdown(report).split('\n');
  const heading = lines.indexOf('### Where the ingest time goes (ms)');
  assert.ok(heading > lines.indexOf('## Ingest throughput (rows/s) and the DuckDB floor') && heading < lines.indexOf('## Startup and memory'));
  const row = (source: string) => lines.find((line, i) => i > heading && line.startsWith(`| ${tier.tier} | ${source} |`));
  const whole = (value: number) => value.toFixed(0);
  const floor = (s: typeof first) => (s.floor ? whole(s.floor.ms) : '-');
  assert.equal(row(first.source), `| ${tier.tier} | ${first.source} | ${whole(first.ingest.ms)} | 12 | 101 | 50 | 0 | 30 | 7 | 62 | 250 | 21 | ${floor(first)} |`);
  assert.equal(row(second.source), `| ${tier.tier} | ${second.source} | ${whole(second.ingest.ms)} | - | - | - | - | - | - | - | - | - | ${floor(second)} |`);
});
