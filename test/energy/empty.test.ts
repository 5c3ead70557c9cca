// The energy routes over a snapshot without any energy, ETS or WDI file: every example answers
// (200 with empty lists and available: false, or the 404 of a dataset / registry that is not there).
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { energyRoutes } from '../../domains/energy/queries/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { startEnergyApp, tempDir } from './fixtures.ts';

let app: TestApp;
before(async () => {
  const root = await tempDir('energy-empty-');
  await mkdir(path.join(root, 'parquet'));
  app = await startEnergyApp(path.join(root, 'parquet'), root);
});
after(() => app?.close());

test('every example answers 200, or 404 for a dataset or registry that is absent', async () => {
  for (const route of energyRoutes) {
    for (const example of route.examples) {
      const response = await app.get(example);
      const absent = /dataset_id=|datasets\/|ets\/installations/.test(example);
      assert.equal(response.status, absent ? 404 : 200, `${example}: ${JSON.stringify(response.body)}`);
    }
  }
  const card = await app.get('/api/v1/energy/scorecard/DE');
  assert.deepEqual([card.body.available, card.body.signals.import_dependency], [false, 'unknown']);
  const completeness = await app.get('/api/v1/energy/completeness');
  assert.deepEqual([completeness.body.status, completeness.body.summary], ['incomplete', { fail_count: 162, warn_count: 0, pass_count: 0 }]);
});
