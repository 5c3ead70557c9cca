// The OECD (coop) reader, its vintages and the coop endpoints, on hand-made files in both real layouts
// and on the real legacy export CLI3.csv (skipped when ../shared/data is absent).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseOecdFile } from '../../domains/country/ingest/oecdParse.ts';
import { ingestOecdFiles } from '../../domains/country/ingest/oecdSnapshot.ts';
import { loadImportLedger } from '../../ingest/commit.ts';
import { MalformedSourceError, IngestRejectedError } from '../../ingest/errors.ts';
import { Database } from '../../engine/database.ts';
import { expectError, expectOk, type TestApp } from '../helpers/app.ts';
import { legacyCsv, removeDir, sdmxCsv, sdmxLabelsCsv, startCountryApp, tempDir, writeText } from './helpers.ts';

const CLI3 = path.resolve(import.meta.dirname, '../../../shared/data/real/oecd_cli/CLI3.csv');

describe('OECD reader: legacy data.oecd.org export', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('oecd-legacy');
  });
  after(() => removeDir(dir));

  test('BOM, quoted header, CRLF; indicators mapped by INDICATOR/SUBJECT/MEASURE, other series skipped, empty value null', async () => {
    const file = await writeText(dir, 'legacy.csv', legacyCsv([
      ['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.12345'],
      ['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-02', ''],
      ['G-7', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.5'],
      ['DEU', 'HUR', 'TOT', 'PC_LF', 'Q', '2018-Q4', '3.3'],
      ['DEU', 'HUR', 'MEN', 'PC_LF', 'Q', '2018-Q4', '3.6'],
      ['FRA', 'INDPROD', 'TOT', 'IDX2015', 'A', '2018', '103.1'],
      ['FRA', 'GDP', 'TOT', 'MLN_USD', 'A', '2018', '2900000'],
    ]));
    const parsed = await parseOecdFile(file);
    assert.equal(parsed.layout, 'oecd-legacy-csv');
    assert.equal(parsed.skippedRows, 2);
    assert.deepEqual(parsed.observations.map((o) => [o.indicator, o.area, o.freq, o.period, o.value, o.sourceRow]), [
      ['CLI', 'USA', 'M', '2019-01', '99.12345', 2],
      ['CLI', 'USA', 'M', '2019-02', null, 3],
      ['CLI', 'G-7', 'M', '2019-01', '99.5', 4],
      ['UNEMP', 'DEU', 'Q', '2018-Q4', '3.3', 5],
      ['INDPRO', 'FRA', 'A', '2018', '103.1', 7],
    ]);
    assert.equal(parsed.observations[0].sourceSeries, 'CLI/AMPLITUD/LTRENDIDX');
  });

  test('a malformed row rejects the file with its line and column; so do a duplicate key and a period of another frequency', async () => {
    const cases: Array<[string, string, RegExp]> = [
      [legacyCsv([['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.1'], ['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-02', 'n/a']]), 'bad-value.csv', /row 3: column Value: "n\/a" is not a number/],
      [legacyCsv([['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.1'], ['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.2']]), 'dup.csv', /row 3: duplicate observation CLI USA M 2019-01 \(also on line 2\)/],
      [legacyCsv([['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019', '99.1']]), 'freq.csv', /row 2: column TIME: 2019 does not match frequency M/],
      ['"LOCATION","INDICATOR","TIME","Value"\n"USA","CLI","2019-01",1\n', 'columns.csv', /row 1: not a data.oecd.org export: missing column\(s\) SUBJECT, MEASURE, FREQUENCY/],
      [legacyCsv([['USA', 'GDP', 'TOT', 'MLN_USD', 'A', '2018', '1']]), 'none.csv', /no observation of the indicators read \(1 row\(s\) of other series\)/],
    ];
    for (const [text, name, message] of cases) {
      const file = await writeText(dir, name, text);
      await assert.rejects(parseOecdFile(file), (error: unknown) => error instanceof MalformedSourceError && message.test(error.message), name);
    }
  });
});

describe('OECD reader: Data Explorer SDMX CSV', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('oecd-sdmx');
  });
  after(() => removeDir(dir));

  test('csvfilewithlabels: columns by name (not the "Time period" label column), the area label kept, growth rates skipped', async () => {
    const file = await writeText(dir, 'labels.csv', sdmxLabelsCsv([
      ['USA', 'United States', 'LI', 'AA', 'IX', '2026-03', '100.7803'],
      ['USA', 'United States', 'LI', 'AA', 'G1', '2026-03', '0.12'],
      ['EA20', 'Euro area (20 countries)', 'LI', 'AA', 'IX', '2026-03', '100.1'],
      ['KOR', 'Korea, Republic of', 'BCICP', 'AA', 'IX', '2026-02', '98.5'],
      ['JPN', 'Japan', 'LI', 'NOR', 'IX', '2026-03', '99'],
    ]));
    const parsed = await parseOecdFile(file);
    assert.equal(parsed.layout, 'oecd-sdmx-csv');
    assert.equal(parsed.skippedRows, 2);
    assert.deepEqual(parsed.observations.map((o) => [o.indicator, o.area, o.areaName, o.period, o.value, o.sourceSeries]), [
      ['CLI', 'USA', 'United States', '2026-03', '100.7803', 'DF_CLI:LI'],
      ['CLI', 'EA20', 'Euro area (20 countries)', '2026-03', '100.1', 'DF_CLI:LI'],
      ['BCI', 'KOR', 'Korea, Republic of', '2026-02', '98.5', 'DF_CLI:BCICP'],
    ]);
  });

  test('format=csv: production, retail and unemployment by MEASURE and their dimensions', async () => {
    const file = await writeText(dir, 'csv.csv', sdmxCsv('OECD.SDD.STES:DSD_STES@DF_INDSERV(4.0)', [
      ['DEU', 'M', 'PRVM', 'IX', 'BTE', 'Y', '_Z', '2026-01', '91.4'],
      ['DEU', 'M', 'PRVM', 'IX', 'C', 'Y', '_Z', '2026-01', '90'],
      ['DEU', 'M', 'TOVM', 'IX', 'G47', 'Y', '_Z', '2026-01', '101.2'],
      ['DEU', 'M', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2026-01', '3.4'],
      ['DEU', 'M', 'UNE_LF_M', 'PS', '_Z', 'Y', '_Z', '2026-01', '1500'],
      ['DEU', 'Q', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-Q4', '3.3'],
    ]));
    const parsed = await parseOecdFile(file);
    assert.equal(parsed.skippedRows, 2);
    assert.deepEqual(parsed.observations.map((o) => [o.indicator, o.freq, o.period, o.value]), [
      ['INDPRO', 'M', '2026-01', '91.4'],
      ['RETAIL', 'M', '2026-01', '101.2'],
      ['UNEMP', 'M', '2026-01', '3.4'],
      ['UNEMP', 'Q', '2025-Q4', '3.3'],
    ]);
  });

  test('short rows padded, blank lines and blank rows skipped, a row only the JavaScript reader reads kept, a long row refused', async () => {
    const header = 'DATAFLOW,REF_AREA,FREQ,MEASURE,UNIT_MEASURE,ACTIVITY,ADJUSTMENT,TRANSFORMATION,TIME_PERIOD,OBS_VALUE,OBS_STATUS';
    const flow = 'OECD.SDD.STES:DSD_STES@DF_INDSERV(4.0)';
    const rows = [
      `${flow},DEU,M,PRVM,IX,BTE,Y,_Z,2026-01,91.4`,
      '',
      '   ',
      // A no-break space before the frequency (trimmed like JavaScript trims), and an area only JavaScript's toUpperCase turns
      // into a code ("ß" -> "SS"): the SQL leaves that row to the JavaScript reader, which keeps it.
      `${flow},\u00df,\u00a0m,PRVM,IX,BTE,Y,_Z,2026-01,95,P`,
      `${flow},ITA,M,PRVM,IX,BTE,Y,_Z,2026-01,97,A`,
    ];
    const file = await writeText(dir, 'ragged.csv', [header, ...rows].join('\n') + '\n');
    const parsed = await parseOecdFile(file);
    assert.equal(parsed.skippedRows, 0);
    assert.deepEqual(parsed.observations.map((o) => [o.area, o.freq, o.value, o.flag, o.sourceSeries, o.sourceRow]), [
      ['DEU', 'M', '91.4', null, 'DF_INDSERV:PRVM', 2],
      ['SS', 'M', '95', 'P', 'DF_INDSERV:PRVM', 5],
      ['ITA', 'M', '97', 'A', 'DF_INDSERV:PRVM', 6],
    ]);
    const long = await writeText(dir, 'long.csv', [header, rows[0], `${rows[4]},extra`].join('\n') + '\n');
    await assert.rejects(parseOecdFile(long), /long\.csv, row 3: 12 fields, the header has 11/);
  });

  test('a header without REF_AREA/TIME_PERIOD/OBS_VALUE/MEASURE is rejected naming the missing columns', async () => {
    const file = await writeText(dir, 'nope.csv', 'REF_AREA,TIME_PERIOD,VALUE\nUSA,2026-01,1\n');
    await assert.rejects(parseOecdFile(file), /row 1: neither an OECD Data Explorer SDMX CSV nor a data.oecd.org export: missing column\(s\) OBS_VALUE, MEASURE/);
  });
});

describe('OECD vintages and the coop endpoints', () => {
  let dir: string;
  let dataDir: string;
  let app: TestApp;
  before(async () => {
    dir = await tempDir('oecd-vintage');
    dataDir = path.join(dir, 'parquet');
    const cli = (area: string, period: string, value: string) => [area, 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', period, value] as const;
    // Vintage 2026-01: USA 2025-10 100.1, 2025-11 100.2; vintage 2026-02 revises 2025-11 and adds 2025-12;
    // an older vintage (2025-12) imported last must not win.
    const january = await writeText(dir, 'jan.csv', legacyCsv([cli('USA', '2025-10', '100.1'), cli('USA', '2025-11', '100.2'), cli('G-7', '2025-10', '99.9')]));
    const february = await writeText(dir, 'feb.csv', legacyCsv([cli('USA', '2025-11', '100.25'), cli('USA', '2025-12', '100.3')]));
    const december = await writeText(dir, 'dec.csv', legacyCsv([cli('USA', '2025-11', '99'), cli('USA', '2025-09', '98.7')]));
    await ingestOecdFiles([january], { dataDir, vintage: '2026-01', now: () => new Date('2026-01-20T10:00:00Z') });
    await ingestOecdFiles([february], { dataDir, vintage: '2026-02-12', now: () => new Date('2026-02-20T10:00:00Z') });
    await ingestOecdFiles([december], { dataDir, vintage: '2025-12', now: () => new Date('2026-03-01T10:00:00Z') });
    const again = await ingestOecdFiles([january], { dataDir, vintage: '2026-01' });
    assert.equal(again.imported.length, 0);
    assert.equal(again.skipped.length, 1);
    // Unemployment, monthly for DEU only quarterly: served quarterly.
    const unemp = await writeText(dir, 'unemp.csv', sdmxCsv('OECD.SDD.TPS:DSD_LFS@DF_IALFS_UNE_M(1.0)', [
      ['DEU', 'Q', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-Q2', '3.4'],
      ['DEU', 'Q', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-Q3', '3.5'],
      ['USA', 'M', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-12', '4.4'],
      ['USA', 'Q', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-Q4', '4.3'],
      ['EU27_2020', 'M', 'UNE_LF_M', 'PT_LF_SUB', '_Z', 'Y', '_Z', '2025-12', '5.9'],
    ]));
    await ingestOecdFiles([unemp], { dataDir, vintage: '2026-02-01', now: () => new Date('2026-03-02T10:00:00Z') });
    app = await startCountryApp(dataDir);
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('every vintage keeps its import record; the rows of all vintages are held', async () => {
    const db = await Database.open({ connections: 1 });
    try {
      const ledger = await loadImportLedger(db, dataDir);
      assert.deepEqual(ledger.filter((r) => r.dataset === 'coop_observations').map((r) => [r.sourceFile, r.source, r.rowCount]), [
        ['jan.csv', 'oecd-legacy-csv', 3],
        ['feb.csv', 'oecd-legacy-csv', 2],
        ['dec.csv', 'oecd-legacy-csv', 2],
        ['unemp.csv', 'oecd-sdmx-csv', 5],
      ]);
    } finally {
      await db.close();
    }
  });

  test('the series serves the newest vintage of each period, newest period first, with its vintage', async () => {
    const body = await expectOk(app, '/api/economic/coop/series/coop_cli_usa');
    assert.equal(body.endpoint, 'coop_series');
    assert.equal(body.series_code, 'COOP_CLI_USA');
    assert.equal(body.geo, 'USA');
    assert.deepEqual(body.country, { iso2: 'US', iso3: 'USA', name: 'United States of America', aggregate: false });
    assert.equal(body.frequency, 'M');
    assert.equal(body.limit, 120);
    assert.deepEqual(body.observations, [
      { period: '2025-12', value: 100.3, vintage: '2026-02-12' },
      { period: '2025-11', value: 100.25, vintage: '2026-02-12' },
      { period: '2025-10', value: 100.1, vintage: '2026-01-01' },
      { period: '2025-09', value: 98.7, vintage: '2025-12-01' },
    ]);
    assert.equal(body.vintage, '2026-02-12');
    const two = await expectOk(app, '/api/economic/coop/series/COOP_CLI_USA?limit=2');
    assert.deepEqual(two.observations.map((o: any) => o.period), ['2025-12', '2025-11']);
    assert.equal(two.total, 4);
    assert.equal(two.count, 2);
  });

  test('an aggregate and a quarterly-only series', async () => {
    const g7 = await expectOk(app, '/api/economic/coop/series/COOP_CLI_G-7');
    assert.deepEqual(g7.country, { iso2: null, iso3: 'G-7', name: 'G7', aggregate: true });
    assert.deepEqual(g7.observations, [{ period: '2025-10', value: 99.9, vintage: '2026-01-01' }]);
    const deu = await expectOk(app, '/api/economic/coop/series/COOP_UNEMP_DEU');
    assert.equal(deu.frequency, 'Q');
    assert.deepEqual(deu.observations.map((o: any) => [o.period, o.value]), [['2025-Q3', 3.5], ['2025-Q2', 3.4]]);
    const usa = await expectOk(app, '/api/economic/coop/series/COOP_UNEMP_USA');
    assert.equal(usa.frequency, 'M');
    assert.deepEqual(usa.observations.map((o: any) => [o.period, o.value]), [['2025-12', 4.4]]);
    // An area with an underscore: the known indicator is matched first.
    const eu = await expectOk(app, '/api/economic/coop/series/coop_unemp_eu27_2020');
    assert.deepEqual([eu.series_code, eu.geo, eu.country.aggregate, eu.country.name, eu.observations[0].value], ['COOP_UNEMP_EU27_2020', 'EU27_2020', true, 'European Union (27 countries from 01/02/2020)', 5.9]);
  });

  test('series errors: malformed 400 with the expected form; well-formed unknown 404 naming it', async () => {
    for (const code of ['COOP-CLI-USA', 'CLI_USA', 'DEVBANK_GDP_PER_CAPITA_USA', 'COOP__USA', 'COOP_CLI_U$A']) {
      const error = await expectError(app, `/api/economic/coop/series/${encodeURIComponent(code)}`, 400, 'series_code');
      assert.match(error.message, /COOP_<INDICATOR>_<ISO3>, for example COOP_CLI_USA/);
    }
    const iso2 = await expectError(app, '/api/economic/coop/series/COOP_CLI_US', 400, 'series_code');
    assert.match(iso2.message, /COOP_CLI_USA/);
    const unknownIndicator = await expectError(app, '/api/economic/coop/series/COOP_GDP_USA', 404);
    assert.match(unknownIndicator.message, /COOP_GDP_USA.*GDP is not one of CLI, BCI, CCI, INDPRO, RETAIL, UNEMP/);
    const unknownArea = await expectError(app, '/api/economic/coop/series/COOP_CLI_ZZZ', 404);
    assert.match(unknownArea.message, /COOP_CLI_ZZZ/);
    const noData = await expectError(app, '/api/economic/coop/series/COOP_BCI_USA', 404);
    assert.match(noData.message, /COOP_BCI_USA.*no BCI observations/);
    await expectError(app, '/api/economic/coop/series/COOP_CLI_USA?limit=0', 400, 'limit');
    await expectError(app, '/api/economic/coop/series/COOP_CLI_USA?limit=abc', 400, 'limit');
  });

  test('coop country: every indicator in order, the latest value with period and vintage; no data is available: false', async () => {
    const body = await expectOk(app, '/api/economic/coop/country/usa');
    assert.equal(body.available, true);
    assert.deepEqual(body.indicators.map((i: any) => [i.canonical_code, i.available, i.value, i.period, i.vintage]), [
      ['COOP_CLI_USA', true, 100.3, '2025-12', '2026-02-12'],
      ['COOP_BCI_USA', false, null, null, null],
      ['COOP_CCI_USA', false, null, null, null],
      ['COOP_INDPRO_USA', false, null, null, null],
      ['COOP_RETAIL_USA', false, null, null, null],
      ['COOP_UNEMP_USA', true, 4.4, '2025-12', '2026-02-01'],
    ]);
    const bgr = await expectOk(app, '/api/economic/coop/country/BGR');
    assert.equal(bgr.available, false);
    assert.deepEqual(bgr.country, { iso2: 'BG', iso3: 'BGR', name: 'Bulgaria', aggregate: false });
    assert.ok(bgr.indicators.every((i: any) => i.available === false && i.value === null));
    const g7 = await expectOk(app, '/api/economic/coop/country/g-7');
    assert.equal(g7.country.aggregate, true);
    await expectError(app, '/api/economic/coop/country/US', 400, 'country');
    await expectError(app, '/api/economic/coop/country/XYZ', 400, 'country');
  });
});

describe('OECD reader: the real legacy export CLI3.csv', { skip: existsSync(CLI3) ? false : `real file absent: ${CLI3}` }, () => {
  let dir: string;
  let app: TestApp;
  // An independent reading of the file: split lines, strip quotes.
  const rows = existsSync(CLI3)
    ? readFileSync(CLI3, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).slice(1).filter(Boolean).map((line) => line.split(',').map((cell) => cell.replaceAll('"', '')))
    : [];
  before(async () => {
    dir = await tempDir('cli3');
    await ingestOecdFiles([CLI3], { dataDir: dir, vintage: '2019-04' });
    app = await startCountryApp(dir);
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('every row is read (BOM, quoted header, aggregates as areas)', async () => {
    const parsed = await parseOecdFile(CLI3);
    assert.equal(parsed.layout, 'oecd-legacy-csv');
    assert.equal(parsed.observations.length, rows.length);
    assert.equal(parsed.skippedRows, 0);
    const areas = new Set(rows.map((r) => r[0]));
    assert.deepEqual(new Set(parsed.observations.map((o) => o.area)), areas);
    for (const aggregate of ['G-7', 'EA19', 'OECD', 'OECDE']) assert.ok(areas.has(aggregate), aggregate);
  });

  test('a country and an aggregate come back with the file values, newest first', async () => {
    for (const area of ['USA', 'GBR', 'EA19']) {
      const expected = rows.filter((r) => r[0] === area).map((r) => ({ period: r[5], value: Number(r[6]), vintage: '2019-04-01' }))
        .sort((a, b) => (a.period < b.period ? 1 : -1));
      const body = await expectOk(app, `/api/economic/coop/series/COOP_CLI_${area}?limit=10000`);
      assert.deepEqual(body.observations, expected, area);
      assert.equal(body.country.aggregate, area === 'EA19');
    }
    const gbr = await expectOk(app, '/api/economic/coop/series/COOP_CLI_GBR?limit=10000');
    assert.deepEqual(gbr.observations.at(-1), { period: '1957-12', value: 98.26189, vintage: '2019-04-01' });
    const card = await expectOk(app, '/api/economic/coop/country/EA19');
    const latest = rows.filter((r) => r[0] === 'EA19').sort((a, b) => (a[5] < b[5] ? 1 : -1))[0];
    assert.deepEqual([card.indicators[0].period, card.indicators[0].value], [latest[5], Number(latest[6])]);
  });

  test('unknown-area and IngestRejectedError paths still hold with the real data loaded', async () => {
    await expectError(app, '/api/economic/coop/series/COOP_CLI_BGR', 404);
    const bad = await writeText(dir, 'bad.csv', legacyCsv([['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-13', '1']]));
    await assert.rejects(ingestOecdFiles([bad], { dataDir: dir }), (error: unknown) => error instanceof IngestRejectedError && /2019-13/.test(error.message));
  });
});
