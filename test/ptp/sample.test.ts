// The generated PTP sample: deterministic, in the real forms with their quirks, large enough, and
// served by every PTP path. Expected totals come from the generator's own accident lists, counted
// here independently of the parsers, the snapshot and the queries.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePtpSample, generateYear, HOT_SPOTS, SAMPLE_LAST_DAY, SAMPLE_YEARS } from '../../domains/ptp/ingest/sample.ts';
import { ptpSampleSource } from '../../domains/ptp/ingest/sampleSource.ts';
import { OBLASTS } from '../../reference/places.ts';
import { FIXED_NOW, startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDir } from '../ingest/fixtures.ts';

const hashes = async (files: string[]) =>
  Promise.all(files.map(async (file) => [basename(file), createHash('sha256').update(await readFile(file)).digest('hex')]));

let app: TestApp;
let files: string[];
before(async () => {
  const root = await tempDir('ptp-sample-');
  const sampleDir = join(root, 'sample');
  const dataDir = join(root, 'parquet');
  await ptpSampleSource.generate(sampleDir);
  files = [...SAMPLE_YEARS.map((y) => join(sampleDir, `ptp-${y}.${y % 2 ? 'json' : 'csv'}`))];
  assert.equal(await ptpSampleSource.isLoaded(dataDir), false);
  await ptpSampleSource.ingest({ dataDir, sampleDir, log: () => undefined });
  assert.equal(await ptpSampleSource.isLoaded(dataDir), true);
  app = await startTestApp(dataDir);
});
after(() => app?.close());

describe('the sample files', () => {
  test('are byte-identical on a second run', async () => {
    const again = await generatePtpSample(await tempDir('ptp-sample-'));
    assert.deepEqual(await hashes(again), await hashes(files));
  });

  test('cover four years up to the tests\' clock with several thousand accidents', () => {
    const counts = SAMPLE_YEARS.map((year) => generateYear(year).length);
    assert.ok(counts.every((n) => n > 1000), counts.join(','));
    assert.ok(counts.reduce((a, b) => a + b, 0) > 5000);
    const last = generateYear(2026).at(-1)!;
    const lastDay = `${last.year}-${String(last.month).padStart(2, '0')}-${String(last.day).padStart(2, '0')}`;
    assert.ok(lastDay <= SAMPLE_LAST_DAY && SAMPLE_LAST_DAY < FIXED_NOW.toISOString().slice(0, 10));
  });

  test('carry the real quirks: both date forms, decimal commas, upper-case regions, swapped and missing coordinates', async () => {
    const [json2023, csv2024, json2025, csv2026] = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    assert.match(json2023, /^\{"success":true,"data":\[\["OBJECTID","Дата и час на ПТП"/);
    assert.match(json2023, /"\d{2}\.\d{2}\.2023 \d{2}:\d{2}","2023","СОФИЯ"/);
    assert.match(json2023, /"ГР\.[А-Я]/);
    assert.match(csv2024, /^OBJECTID;Дата и час на ПТП;/);
    assert.match(csv2024, /;2024-\d{2}-\d{2} \d{2}:\d{2};2024;СОФИЙСКА;/);
    assert.match(csv2024, /;4\d,\d{6};2\d,\d{6}\r$/m);
    assert.match(json2025, /"Област": "София"/);
    assert.match(csv2026, /,2026-\d{2}-\d{2} \d{2}:\d{2}:00,2026,/);
    // Swapped pairs (longitude first) and rows without coordinates exist in every year.
    for (const year of SAMPLE_YEARS) {
      const crashes = generateYear(year);
      assert.ok(crashes.some((c) => c.swapped), `${year}: no swapped pair`);
      assert.ok(crashes.some((c) => c.lat === null), `${year}: no row without coordinates`);
    }
  });
});

describe('every PTP path answers on the sample', () => {
  test('per year, the 28 oblasts together hold every generated accident', async () => {
    for (const year of SAMPLE_YEARS) {
      let total = 0;
      for (const oblast of OBLASTS) {
        const response = await app.get(`/api/ptp/getPtpPerRegion/${encodeURIComponent(oblast.name)}?year=${year}`);
        assert.equal(response.status, 200);
        total += response.body.count;
      }
      assert.equal(total, generateYear(year).length, String(year));
    }
  });

  test('per year, the deadly clusters hold every death of an accident with coordinates, and the planted hot spots rank high', async () => {
    for (const year of SAMPLE_YEARS) {
      const body = (await app.get(`/api/ptp/getMostDeadlyLocations/${year}?limit=200`)).body;
      assert.ok(body.count < 200, 'all deadly clusters fit in one answer');
      const deaths = generateYear(year).filter((c) => c.lat !== null).reduce((sum, c) => sum + c.died, 0);
      assert.equal(body.items.reduce((sum: number, i: { died_count: number }) => sum + i.died_count, 0), deaths, String(year));
      const top = body.items.slice(0, 10).map((i: { location: string }) => i.location);
      const planted = HOT_SPOTS.filter((spot) => top.some((location: string) => location.endsWith(` ${spot.city}`)));
      assert.ok(planted.length >= 3, `${year}: top 10 ${top.join(', ')}`);
    }
  });

  test('city lookups in Latin and Cyrillic agree', async () => {
    for (const [latin, cyrillic] of [['Sofia', 'София'], ['Plovdiv', 'Пловдив'], ['Veliko Tarnovo', 'Велико Търново'], ['Kardzhali', 'Кърджали']]) {
      const a = (await app.get(`/api/ptp/getPtpPerCity?city=${encodeURIComponent(latin)}&year=2025`)).body;
      const b = (await app.get(`/api/ptp/getPtpPerCity/${encodeURIComponent(cyrillic)}?year=2025`)).body;
      assert.ok(a.count > 0, latin);
      assert.deepEqual(a.items, b.items, latin);
      assert.deepEqual(a.filters.matched_as, [`гр. ${cyrillic}`]);
    }
  });
});
