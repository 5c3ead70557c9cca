// The series variants held per dataset (energy.seriesVariants, a held family: heldSeries.ts) by hand, on
// a small fixture whose expected answers are written out below (worked out from the rows, not by either
// path): a dataset whose dims JavaScript would order unlike DuckDB (U+FF21 'Ａ' is EF BC A1 in UTF-8, before
// the emoji's F0 9F 98 80, but after its surrogate D83D in UTF-16) and one whose dims JavaScript would
// upper-case unlike DuckDB ('ß': DuckDB's upper() gives 'ẞ', JavaScript's 'SS') are refused by the guard
// and answered by the statements, in DuckDB's order; an ASCII dataset is held and answers the same.
// And the variants count against the one held-state budget: over it the accessor gives null, the family's
// stats say why, and the routes answer the same through their statements.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { heldVariants } from '../../domains/energy/queries/heldSeries.ts';
import { compareEnergy, getEnergyLatest } from '../../domains/energy/queries/series.ts';
import { Database } from '../../engine/database.ts';
import { heldStateStats, releaseHeldState, setHeldBudget } from '../../engine/held.ts';
import { withScratchDatabase } from '../helpers/scratchDatabase.ts';

const A = '\uff21';
const EMOJI = '\u{1f600}';

/** energy_series, energy_obs_by_period and energy_obs_by_geo as the routes read them, written by hand. */
const FIXTURE = [
  `CREATE TABLE energy_datasets AS SELECT * FROM (VALUES ('plain_test'), ('sort_test'), ('upper_test')) t(dataset_id)`,
  `CREATE TABLE energy_series AS
     SELECT variant::INTEGER AS variant, dataset_id, geo, series_key, 'A' AS freq, unit,
            MAP(['freq', dim_key, 'unit', 'geo'], ['A', dim_value, unit, geo]) AS dims, latest_start::DATE AS latest_start, latest_period
       FROM (VALUES
         (1, 'plain_test', 'DE', 'A.X.GWH.DE', 'GWH', 'siec', 'X', '2021-01-01', '2021'),
         (2, 'plain_test', 'DE', 'A.Y.GWH.DE', 'GWH', 'siec', 'Y', NULL, NULL),
         (3, 'plain_test', 'FR', 'A.X.GWH.FR', 'GWH', 'siec', 'X', '2021-01-01', '2021'),
         (4, 'sort_test', 'DE', 'A.${A}.GWH.DE', 'GWH', 'siec', '${A}', '2021-01-01', '2021'),
         (5, 'sort_test', 'DE', 'A.${EMOJI}.GWH.DE', 'GWH', 'siec', '${EMOJI}', '2021-01-01', '2021'),
         (6, 'sort_test', 'FR', 'A.${A}.GWH.FR', 'GWH', 'siec', '${A}', '2021-01-01', '2021'),
         (7, 'sort_test', 'FR', 'A.${EMOJI}.GWH.FR', 'GWH', 'siec', '${EMOJI}', '2021-01-01', '2021'),
         (8, 'upper_test', 'DE', 'A.T1.EUR.DE', 'EUR', 'tax', 'ß', '2021-01-01', '2021'))
         t(variant, dataset_id, geo, series_key, unit, dim_key, dim_value, latest_start, latest_period)`,
  `CREATE TABLE energy_obs_by_geo AS
     SELECT o.dataset_id, s.geo, s.series_key, (o.time_period || '-01-01')::DATE AS period_start, o.time_period, o.variant, o.obs_value, o.obs_flag
       FROM (VALUES
         ('plain_test', 1, '2020', 7.0::DOUBLE, NULL), ('plain_test', 1, '2021', 10.0, NULL), ('plain_test', 2, '2021', NULL, 'c'),
         ('plain_test', 3, '2020', 9.0, NULL), ('plain_test', 3, '2021', 20.0, NULL),
         ('sort_test', 4, '2021', 10.0, NULL), ('sort_test', 5, '2021', 30.0, NULL), ('sort_test', 6, '2021', 20.0, NULL), ('sort_test', 7, '2021', 5.0, NULL),
         ('upper_test', 8, '2021', 1.5, NULL)) o(dataset_id, variant, time_period, obs_value, obs_flag)
       JOIN energy_series s USING (variant)`,
  `CREATE TABLE energy_obs_by_period AS SELECT dataset_id, time_period, geo, series_key, variant, obs_value, obs_flag FROM energy_obs_by_geo`,
];

const ctx = (db: Database) => ({ db, today: '2026-11-22' }) as never;
const compare = (db: Database, dataset: string, dim: Record<string, string> = {}) =>
  compareEnergy.handle({ dataset_id: dataset, geos: 'DE,FR', dim } as never, ctx(db));
const latest = (db: Database, dataset: string, dim: Record<string, string> = {}) =>
  getEnergyLatest.handle({ dataset_id: dataset, dim, limit: 100 } as never, ctx(db));
const familyStats = (db: Database) => heldStateStats(db).views.find((view) => view.name === 'energy.seriesVariants')!;
const dims = (siec: string, geo: string) => ({ freq: 'A', siec, unit: 'GWH', geo });

// plain_test in 2021 (its latest period with a value): siec X ranks FR (20) over DE (10); siec Y has DE's
// missing value (flag c), unranked; series ordered by their codes but geo (A.X.GWH before A.Y.GWH).
const PLAIN_COMPARE = {
  endpoint: 'energy_compare', dataset_id: 'plain_test', period: '2021', geos: ['DE', 'FR'], missing_geos: [], count: 3,
  observations: [
    { geo: 'FR', series_key: 'A.X.GWH.FR', unit: 'GWH', obs_value: 20, obs_flag: null, rank: 1, dims: dims('X', 'FR') },
    { geo: 'DE', series_key: 'A.X.GWH.DE', unit: 'GWH', obs_value: 10, obs_flag: null, rank: 2, dims: dims('X', 'DE') },
    { geo: 'DE', series_key: 'A.Y.GWH.DE', unit: 'GWH', obs_value: null, obs_flag: 'c', rank: null, dims: dims('Y', 'DE') },
  ],
};
const PLAIN_LATEST = {
  endpoint: 'energy_latest', dataset_id: 'plain_test', geo: null, period: '2021', count: 3, total: 3,
  observations: [
    { geo: 'DE', series_key: 'A.X.GWH.DE', unit: 'GWH', obs_value: 10, obs_flag: null, dims: dims('X', 'DE') },
    { geo: 'DE', series_key: 'A.Y.GWH.DE', unit: 'GWH', obs_value: null, obs_flag: 'c', dims: dims('Y', 'DE') },
    { geo: 'FR', series_key: 'A.X.GWH.FR', unit: 'GWH', obs_value: 20, obs_flag: null, dims: dims('X', 'FR') },
  ],
};

describe('by hand: dims JavaScript would order or upper-case unlike DuckDB are answered by the statements', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ connections: 1 });
    for (const sql of FIXTURE) await db.run(sql);
  });
  after(() => db?.close());

  test('an ASCII dataset is held and answers as worked out', async () => {
    const variants = await heldVariants(db, 'plain_test');
    assert.ok(Array.isArray(variants) && variants.length === 3, 'held');
    assert.deepEqual(await compare(db, 'plain_test'), PLAIN_COMPARE);
    assert.deepEqual(await latest(db, 'plain_test'), PLAIN_LATEST);
  });

  test('dims in UTF-8 byte order (Ａ before the emoji; UTF-16 order has them the other way): refused, answered in DuckDB\'s order', async () => {
    assert.equal(await heldVariants(db, 'sort_test'), null, 'the guard refuses the dataset');
    // 2021: per series (its codes but geo), geos ranked by value; the series with Ａ first.
    assert.deepEqual(await compare(db, 'sort_test'), {
      endpoint: 'energy_compare', dataset_id: 'sort_test', period: '2021', geos: ['DE', 'FR'], missing_geos: [], count: 4,
      observations: [
        { geo: 'FR', series_key: `A.${A}.GWH.FR`, unit: 'GWH', obs_value: 20, obs_flag: null, rank: 1, dims: dims(A, 'FR') },
        { geo: 'DE', series_key: `A.${A}.GWH.DE`, unit: 'GWH', obs_value: 10, obs_flag: null, rank: 2, dims: dims(A, 'DE') },
        { geo: 'DE', series_key: `A.${EMOJI}.GWH.DE`, unit: 'GWH', obs_value: 30, obs_flag: null, rank: 1, dims: dims(EMOJI, 'DE') },
        { geo: 'FR', series_key: `A.${EMOJI}.GWH.FR`, unit: 'GWH', obs_value: 5, obs_flag: null, rank: 2, dims: dims(EMOJI, 'FR') },
      ],
    });
    // By geo, then series_key in byte order.
    assert.deepEqual(await latest(db, 'sort_test'), {
      endpoint: 'energy_latest', dataset_id: 'sort_test', geo: null, period: '2021', count: 4, total: 4,
      observations: [
        { geo: 'DE', series_key: `A.${A}.GWH.DE`, unit: 'GWH', obs_value: 10, obs_flag: null, dims: dims(A, 'DE') },
        { geo: 'DE', series_key: `A.${EMOJI}.GWH.DE`, unit: 'GWH', obs_value: 30, obs_flag: null, dims: dims(EMOJI, 'DE') },
        { geo: 'FR', series_key: `A.${A}.GWH.FR`, unit: 'GWH', obs_value: 20, obs_flag: null, dims: dims(A, 'FR') },
        { geo: 'FR', series_key: `A.${EMOJI}.GWH.FR`, unit: 'GWH', obs_value: 5, obs_flag: null, dims: dims(EMOJI, 'FR') },
      ],
    });
  });

  test('a dim DuckDB upper-cases unlike JavaScript (ß: ẞ, not SS): refused, the filter is DuckDB\'s', async () => {
    assert.equal(await heldVariants(db, 'upper_test'), null, 'the guard refuses the dataset');
    // dim.tax=ß is bound as 'SS' (the value upper-cased as the routes do), which upper('ß') = 'ẞ' is not.
    assert.deepEqual(await latest(db, 'upper_test', { tax: 'ß' }), {
      endpoint: 'energy_latest', dataset_id: 'upper_test', geo: null, period: null, count: 0, total: 0, observations: [],
    });
    assert.deepEqual(await latest(db, 'upper_test', { tax: 'ẞ' }), {
      endpoint: 'energy_latest', dataset_id: 'upper_test', geo: null, period: '2021', count: 1, total: 1,
      observations: [{ geo: 'DE', series_key: 'A.T1.EUR.DE', unit: 'EUR', obs_value: 1.5, obs_flag: null, dims: { freq: 'A', tax: 'ß', unit: 'EUR', geo: 'DE' } }],
    });
  });

  test('the family\'s stats: three datasets listed, one held, two refused', () => {
    const stats = familyStats(db);
    assert.equal(stats.state, 'held');
    assert.deepEqual(stats.members, { listed: 3, member_rows_max: 50_000, read: { held: 1, refused: 2 } });
  });
});

test('the variants count against the one budget: over it the accessor gives null and the routes answer the same by their statements', async () => {
  await withScratchDatabase(FIXTURE, async (db) => {
    try {
      // The list of datasets alone, then one dataset's variants: their bytes are the family's and the budget's.
      assert.equal(await heldVariants(db, 'no_such_dataset'), 'unknown');
      const listBytes = heldStateStats(db).bytes;
      assert.ok(listBytes > 0);
      assert.ok(await heldVariants(db, 'plain_test'));
      const memberBytes = heldStateStats(db).bytes - listBytes;
      assert.ok(memberBytes > 0, 'the variants are counted in the budget');
      assert.deepEqual([familyStats(db).bytes, familyStats(db).rows], [listBytes + memberBytes, 3 + 3]);
      assert.deepEqual(await compare(db, 'plain_test'), PLAIN_COMPARE);

      // One byte short: the list is held, the variants are not (over the budget), the answers unchanged.
      releaseHeldState(db);
      setHeldBudget(listBytes + memberBytes - 1);
      assert.equal(await heldVariants(db, 'plain_test'), null);
      assert.deepEqual(familyStats(db).members!.read, { 'over-budget': 1 });
      assert.equal(heldStateStats(db).bytes, listBytes);
      assert.deepEqual(await compare(db, 'plain_test'), PLAIN_COMPARE);
      assert.deepEqual(await latest(db, 'plain_test'), PLAIN_LATEST);

      // Exactly enough: held.
      releaseHeldState(db);
      setHeldBudget(listBytes + memberBytes);
      assert.ok(await heldVariants(db, 'plain_test'));
      assert.equal(heldStateStats(db).bytes, listBytes + memberBytes);

      // A tiny budget: not even the list; the statements answer, an unknown dataset is still a 404.
      releaseHeldState(db);
      setHeldBudget(16);
      assert.equal(await heldVariants(db, 'plain_test'), null);
      assert.equal(familyStats(db).state, 'over-budget');
      assert.deepEqual(await compare(db, 'plain_test'), PLAIN_COMPARE);
      assert.deepEqual(await latest(db, 'plain_test'), PLAIN_LATEST);
      await assert.rejects(compare(db, 'no_such_dataset'), (error: { status?: number }) => error.status === 404);
    } finally {
      setHeldBudget(1024 * 2 ** 20);
      releaseHeldState(db);
    }
  });
});
