// compareEnergy answers from the dataset's variants held in JavaScript (heldSeries.ts); its one-statement
// form (compareByStatement: the variant filter, latest period, rank() and order in SQL) is the independent
// answer. Combinations of geos, period, unit, freq and dim filters over the fixture (ties, a null value
// with its flag, several series per geo, periods without data) must give the same body, byte for byte:
// every third one, and always every geo list and period without a dim, unit or freq filter.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareByStatement } from '../../domains/energy/queries/series.ts';
import { dimsRecord } from '../../domains/energy/queries/heldSeries.ts';
import type { TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { startEnergyApp, writeEnergyFixture } from './fixtures.ts';

let app: TestApp;
before(async () => {
  const { root, dataDir } = await writeEnergyFixture();
  app = await startEnergyApp(dataDir, root);
});
after(() => app?.close());

const DATASETS: Array<{ dataset: string; dims: Array<Record<string, string>>; units: Array<string | null>; freqs: Array<string | null> }> = [
  { dataset: 'nrg_ind_ren', dims: [{}, { nrg_bal: 'REN' }, { nrg_bal: 'ren_elc' }, { nrg_bal: 'XX' }, { nope: 'REN' }], units: [null, 'PC'], freqs: [null, 'Q'] },
  { dataset: 'nrg_bal_s', dims: [{}, { nrg_bal: 'GIC' }, { siec: 'TOTAL', nrg_bal: 'GIC' }, { siec: 'total' }], units: [null, 'KTOE', 'TJ'], freqs: [null] },
  { dataset: 'nrg_cb_e', dims: [{}, { nrg_bal: 'GEP' }], units: [null, 'GWH'], freqs: [null, 'A'] },
  { dataset: 'nrg_pc_204', dims: [{}, { tax: 'I_TAX' }], units: [null], freqs: [null, 'S'] },
];
const GEO_LISTS = [['DE', 'FR', 'EL', 'MT'], ['BE', 'BG', 'CY', 'AT'], ['AT'], ['SK', 'SI', 'DE', 'BE', 'BG', 'FR', 'EL'], ['EU27_2020', 'DE']];
const PERIODS = [null, '2020', '2021', '2022-S2'];

test('compare: held variants answer as the one-statement form on the combinations', async () => {
  const route = (await import('../../domains/energy/queries/series.ts')).compareEnergy;
  let compared = 0;
  let nonEmpty = 0;
  const all = DATASETS.flatMap(({ dataset, dims, units, freqs }) =>
    combinations<[string, string[], string | null, Record<string, string>, string | null, string | null]>([dataset], GEO_LISTS, PERIODS, dims, units, freqs));
  const unfiltered = ([, , , dim, unit, freq]: (typeof all)[number]) => Object.keys(dim).length === 0 && unit === null && freq === null;
  for (const [dataset, geos, requested, dim, unit, freq] of strided(all, 3, unfiltered)) {
    const params = { dataset_id: dataset, geos: geos.join(','), ...(requested === null ? {} : { period: requested }), ...(unit === null ? {} : { unit }), ...(freq === null ? {} : { freq }), dim };
    const answered = await route.handle(params as never, { db: app.db, today: '2026-11-22' } as never);
    const expected = await compareByStatement(app.db, { dataset, geos, requested, unit, freq, dim });
    assert.equal(JSON.stringify(answered), JSON.stringify(expected), JSON.stringify(params));
    compared++;
    if ((expected.observations as unknown[]).length > 0) nonEmpty++;
  }
  // The combinations reach answers with rows (ranks, ties, nulls), not only empty ones.
  assert.ok(compared > 300 && nonEmpty > 60, `${compared} compared, ${nonEmpty} with rows`);
});

test('dims objects keep every key of the data as an own property, in order, __proto__ included', () => {
  const dims = dimsRecord(['geo', '__proto__', 'unit'], ['DE', 'x', 'KTOE']);
  assert.deepEqual(Object.keys(dims), ['geo', '__proto__', 'unit']);
  assert.equal(JSON.stringify(dims), '{"geo":"DE","__proto__":"x","unit":"KTOE"}');
  assert.equal(Object.getPrototypeOf(dims), Object.prototype);
});
