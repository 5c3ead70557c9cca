// Country coverage is registered per database and read back through any wrapper of it (the
// benchmark times the overview through a recording proxy: it must answer as the server does).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordingDatabase, type RecordedQuery } from '../../bench/recordingDatabase.ts';
import { Database } from '../../engine/database.ts';
import { countryCoverage, registerCoverage, type CountryCoverage } from '../../queries/shared/coverage.ts';

test('coverage registered for a database is seen through a wrapper, and not by another database', async () => {
  const db = await Database.open();
  const other = await Database.open();
  try {
    const provider: CountryCoverage = {
      source: 'devbank',
      headline: async (_db, country) => (country.iso2 === 'BG'
        ? { series: 'NY.GDP.MKTP.CD', label: 'GDP', value: 1, unit: 'USD', period: '2024', vintage: null }
        : null),
    };
    registerCoverage(db, 'country', [provider]);
    registerCoverage(db, 'country', [provider]); // idempotent
    const log: RecordedQuery[] = [];
    const bg = { iso2: 'BG', iso3: 'BGR' };
    const direct = await countryCoverage(db, bg);
    const wrapped = await countryCoverage(recordingDatabase(db, log), bg);
    assert.deepEqual(direct.sources_present, ['devbank']);
    assert.deepEqual(direct.sources.devbank.declared_by, ['country']);
    assert.deepEqual(wrapped, direct);
    assert.deepEqual((await countryCoverage(other, bg)).sources_present, []);
  } finally {
    await db.close();
    await other.close();
  }
});
