// The generic World Bank WDI reader: the real bulk CSV (values checked against the raw lines read here
// independently, blank years missing, aggregates flagged by the built-in list), the Metadata_Country
// and Metadata_Indicator files, JSON API pages, malformed files by line and column, the snapshot
// (vintage replacement, no-op re-ingest, all-or-nothing), the writers and the ingest command.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { MalformedCellError } from '../../ingest/eurostat/errors.ts';
import { worldBankIngestCommand } from '../../ingest/worldbank/command.ts';
import { loadWorldBank, WDI_AGGREGATE_CODES, worldBankIndicatorsInSnapshot } from '../../ingest/worldbank/load.ts';
import { parseWdiFile, type WdiObservation } from '../../ingest/worldbank/parse.ts';
import { ingestWorldBankFiles } from '../../ingest/worldbank/snapshot.ts';
import { writeWdiApiJson, writeWdiBulkCsv, writeWdiCountryMetadata, type WdiWriteRow } from '../../ingest/worldbank/write.ts';
import { query, realDir, snapshotBytes, tempDir } from './helpers.ts';

const REAL = join(realDir, 'worldbank', 'API_NE.EXP.GNFS.ZS_DS2_en_csv_v2_5995190.csv');
const skipReal = existsSync(REAL) ? false : `real WDI extract absent: ${REAL}`;
const NOW = () => new Date('2026-01-02T03:04:05.000Z');

/** The raw bulk CSV: header cells and country code -> cells, by plain splitting on '","'. */
async function rawBulk(file: string): Promise<{ header: string[]; rows: Map<string, string[]> }> {
  const lines = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  const cells = (line: string) => line.replace(/^"/, '').replace(/",$/, '').split('","');
  const headerAt = lines.findIndex((l) => l.startsWith('"Country Name"'));
  const rows = new Map(lines.slice(headerAt + 1).filter((l) => l !== '').map((l) => [cells(l)[1]!, cells(l)] as const));
  return { header: cells(lines[headerAt]!), rows };
}

describe('WDI bulk CSV: the real extract', { skip: skipReal }, () => {
  test('values unchanged, blank years missing, vintage, 266 rows = 217 economies + 49 aggregates', async () => {
    const parsed = await parseWdiFile(REAL);
    assert.equal(parsed.kind, 'data');
    if (parsed.kind !== 'data') return;
    const raw = await rawBulk(REAL);
    assert.equal(parsed.format, 'wdi-bulk-csv');
    assert.equal(parsed.vintage, '2023-10-26');
    assert.deepEqual([...parsed.indicators], [['NE.EXP.GNFS.ZS', 'Exports of goods and services (% of GDP)']]);
    assert.equal(parsed.countries.size, raw.rows.size);
    assert.equal(raw.rows.size, 266);
    let present = 0;
    for (const cells of raw.rows.values()) present += cells.slice(4).filter((c) => c !== '').length;
    assert.equal(parsed.observationCount, present);
    for (const [code, year] of [['DEU', '2022'], ['BGR', '1980'], ['EUU', '1995'], ['WLD', '2000'], ['ABW', '1995'], ['ZWE', '2010']] as const) {
      const cell = raw.rows.get(code)![raw.header.indexOf(year)]!;
      assert.notEqual(cell, '', `${code} ${year} has a value in the file`);
      const o: WdiObservation | undefined = parsed.observations.find((x) => x.country_code === code && x.year === Number(year));
      assert.equal(o?.value, Number(cell), `${code} ${year}`);
      assert.equal(o?.vintage, '2023-10-26');
      assert.equal(o?.country_name, raw.rows.get(code)![0]);
    }
    // Bulgaria has no value before 1980 (blank cells): no row, never 0.
    assert.equal(raw.rows.get('BGR')![raw.header.indexOf('1979')], '');
    assert.equal(parsed.observations.filter((x) => x.country_code === 'BGR' && x.year < 1980).length, 0);
    // Not classified (INX) is all blank: listed as a country row, no observation.
    assert.ok(parsed.countries.has('INX'));
    assert.equal(parsed.observations.filter((x) => x.country_code === 'INX').length, 0);
    // Every built-in aggregate code is in this release, and the rest are the 217 economies.
    assert.equal([...raw.rows.keys()].filter((c) => WDI_AGGREGATE_CODES.has(c)).length, 49);
  });

  test('ingested: aggregates flagged (built-in list, stated), economies not', async () => {
    const dataDir = await tempDir();
    await ingestWorldBankFiles({ dataDir, path: REAL, now: NOW });
    const [countries, flagged, indicators] = await query((db) => loadWorldBank(db, dataDir),
      `SELECT is_aggregate, aggregate_basis, count(*)::INTEGER AS n FROM wdi_countries GROUP BY ALL ORDER BY ALL`,
      `SELECT code, is_aggregate FROM wdi_countries WHERE code IN ('EUU', 'WLD', 'HIC', 'DEU', 'BGR', 'XKX') ORDER BY code`,
      `SELECT code, CAST(vintage AS VARCHAR) AS vintage, first_year, last_year FROM wdi_indicators`);
    assert.deepEqual(countries, [
      { is_aggregate: false, aggregate_basis: 'builtin-list', n: 217 },
      { is_aggregate: true, aggregate_basis: 'builtin-list', n: 49 },
    ]);
    assert.deepEqual(flagged.map((r) => [r.code, r.is_aggregate]), [['BGR', false], ['DEU', false], ['EUU', true], ['HIC', true], ['WLD', true], ['XKX', false]]);
    assert.equal(indicators[0]!.vintage, '2023-10-26');
    assert.equal(indicators[0]!.last_year, 2022);
  });
});

const IND = { code: 'EG.FEC.RNEW.ZS', name: 'Renewable energy consumption (% of total final energy consumption)', lastUpdated: '2025-07-01' };
const ROWS: WdiWriteRow[] = [
  { country_code: 'BGR', country_name: 'Bulgaria', year: 2020, value: 23.3 },
  { country_code: 'BGR', country_name: 'Bulgaria', year: 2021, value: null },
  { country_code: 'EUU', country_name: 'European Union', year: 2020, value: 22.1 },
  { country_code: 'EUU', country_name: 'European Union', year: 2021, value: 21.8 },
];

describe('WDI: metadata, JSON API, writers', () => {
  test('bulk CSV writer reads back; a blank year is no row', async () => {
    const dir = await tempDir();
    const file = join(dir, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv');
    await writeWdiBulkCsv(file, IND, ROWS);
    const text = await readFile(file, 'utf8');
    assert.ok(text.startsWith('\uFEFF"Data Source","World Development Indicators",\r\n\r\n"Last Updated Date","2025-07-01",\r\n\r\n'));
    assert.match(text, /"Bulgaria","BGR","Renewable[^"]*","EG.FEC.RNEW.ZS","23.3","",\r\n/);
    const parsed = await parseWdiFile(file);
    assert.deepEqual(parsed.observations.map((o) => [o.country_code, o.year, o.value, o.vintage, o.line]), [
      ['BGR', 2020, 23.3, '2025-07-01', 6],
      ['EUU', 2020, 22.1, '2025-07-01', 7],
      ['EUU', 2021, 21.8, '2025-07-01', 7],
    ]);
  });

  test('Metadata_Country: blank Region is an aggregate, and it wins over the built-in list', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await writeWdiBulkCsv(join(src, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'), IND, [
      ...ROWS, { country_code: 'XKX', country_name: 'Kosovo', year: 2020, value: 19 }, { country_code: 'WLD', country_name: 'World', year: 2020, value: 18.7 },
    ]);
    await writeWdiCountryMetadata(join(src, 'Metadata_Country_API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'), [
      { code: 'BGR', region: 'Europe & Central Asia', income_group: 'Upper middle income', name: 'Bulgaria' },
      { code: 'EUU', region: null, income_group: null, name: 'European Union', special_notes: 'European Union aggregate.' },
      // Not a real classification: a blank region here must make it an aggregate, whatever the built-in list says.
      { code: 'XKX', region: null, income_group: null, name: 'Kosovo' },
      { code: 'MNE', region: 'Europe & Central Asia', income_group: 'Upper middle income', name: 'Montenegro' },
    ]);
    const parsed = await parseWdiFile(join(src, 'Metadata_Country_API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'));
    assert.equal(parsed.kind, 'country-metadata');
    await ingestWorldBankFiles({ dataDir, path: src, now: NOW });
    const [countries] = await query((db) => loadWorldBank(db, dataDir),
      `SELECT code, name, is_aggregate, region, income_group, aggregate_basis FROM wdi_countries ORDER BY code`);
    assert.deepEqual(countries, [
      { code: 'BGR', name: 'Bulgaria', is_aggregate: false, region: 'Europe & Central Asia', income_group: 'Upper middle income', aggregate_basis: 'metadata' },
      { code: 'EUU', name: 'European Union', is_aggregate: true, region: null, income_group: null, aggregate_basis: 'metadata' },
      { code: 'MNE', name: 'Montenegro', is_aggregate: false, region: 'Europe & Central Asia', income_group: 'Upper middle income', aggregate_basis: 'metadata' },
      { code: 'WLD', name: 'World', is_aggregate: true, region: null, income_group: null, aggregate_basis: 'builtin-list' },
      { code: 'XKX', name: 'Kosovo', is_aggregate: true, region: null, income_group: null, aggregate_basis: 'metadata' },
    ]);
  });

  test('Metadata_Indicator: source note kept when the data is re-ingested later', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await writeFile(join(src, 'Metadata_Indicator_API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'),
      '\uFEFF"INDICATOR_CODE","INDICATOR_NAME","SOURCE_NOTE","SOURCE_ORGANIZATION",\r\n"EG.FEC.RNEW.ZS","Renewable energy consumption (% of total final energy consumption)","Renewable energy consumption is the share of renewables energy in total final energy consumption.","IEA, IRENA, UNSD, World Bank, WHO. 2023.",\r\n');
    await writeWdiBulkCsv(join(src, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'), IND, ROWS);
    await ingestWorldBankFiles({ dataDir, path: src, now: NOW });
    const next = await tempDir();
    await writeWdiBulkCsv(join(next, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_2.csv'), { ...IND, lastUpdated: '2025-12-16' }, [{ country_code: 'BGR', country_name: 'Bulgaria', year: 2022, value: 24.4 }]);
    await ingestWorldBankFiles({ dataDir, path: next, now: NOW });
    const [indicators, obs] = await query((db) => loadWorldBank(db, dataDir),
      `SELECT code, CAST(vintage AS VARCHAR) AS vintage, source_organization, observation_count, source_files FROM wdi_indicators`,
      `SELECT country_code, year, value, CAST(vintage AS VARCHAR) AS vintage FROM wdi_observations`);
    assert.deepEqual(indicators, [{ code: 'EG.FEC.RNEW.ZS', vintage: '2025-12-16', source_organization: 'IEA, IRENA, UNSD, World Bank, WHO. 2023.', observation_count: 1, source_files: ['API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_2.csv'] }]);
    // The new vintage replaced every earlier observation of the indicator.
    assert.deepEqual(obs, [{ country_code: 'BGR', year: 2022, value: 24.4, vintage: '2025-12-16' }]);
  });

  test('JSON API page: lastupdated is the vintage, null values have no row, countryiso3code else country.id', async () => {
    const dir = await tempDir();
    const file = join(dir, 'page1.json');
    await writeFile(file, JSON.stringify([
      { page: 1, pages: 1, per_page: 50, total: 4, sourceid: '2', lastupdated: '2025-07-01' },
      [
        { indicator: { id: 'NY.GDP.MKTP.KD.ZG', value: 'GDP growth (annual %)' }, country: { id: 'BG', value: 'Bulgaria' }, countryiso3code: 'BGR', date: '2023', value: 1.9, unit: '', obs_status: '', decimal: 1 },
        { indicator: { id: 'NY.GDP.MKTP.KD.ZG', value: 'GDP growth (annual %)' }, country: { id: 'BG', value: 'Bulgaria' }, countryiso3code: 'BGR', date: '2024', value: null, unit: '', obs_status: '', decimal: 1 },
        { indicator: { id: 'NY.GDP.MKTP.KD.ZG', value: 'GDP growth (annual %)' }, country: { id: 'EU', value: 'European Union' }, countryiso3code: 'EUU', date: '2023', value: 0.4, unit: '', obs_status: '', decimal: 1 },
        { indicator: { id: 'NY.GDP.MKTP.KD.ZG', value: 'GDP growth (annual %)' }, country: { id: 'XK', value: 'Kosovo' }, countryiso3code: '', date: '2023', value: 4.1, unit: '', obs_status: '', decimal: 1 },
      ],
    ]));
    const parsed = await parseWdiFile(file);
    assert.equal(parsed.kind === 'data' && parsed.format, 'wdi-api-json');
    assert.deepEqual(parsed.observations.map((o) => [o.indicator_code, o.country_code, o.year, o.value, o.vintage]), [
      ['NY.GDP.MKTP.KD.ZG', 'BGR', 2023, 1.9, '2025-07-01'],
      ['NY.GDP.MKTP.KD.ZG', 'EUU', 2023, 0.4, '2025-07-01'],
      ['NY.GDP.MKTP.KD.ZG', 'XK', 2023, 4.1, '2025-07-01'],
    ]);
    const written = join(dir, 'written.json');
    await writeWdiApiJson(written, IND, ROWS);
    assert.deepEqual((await parseWdiFile(written)).observations.map((o) => [o.country_code, o.year, o.value]), [['BGR', 2020, 23.3], ['EUU', 2020, 22.1], ['EUU', 2021, 21.8]]);
  });

  test('the API error answer, malformed cells by line and column', async () => {
    const dir = await tempDir();
    const cases: Array<[string, string, number | null, number | null, RegExp]> = [
      ['err.json', '[{"message":[{"id":"120","key":"Invalid value","value":"The provided parameter value is not valid"}]}]', null, null, /Invalid value/],
      ['bad.json', '[{"page":1,"lastupdated":"2025-07-01"},[{"indicator":{"id":"X"},"country":{"id":"BG"},"countryiso3code":"BGR","date":"2023Q1","value":1}]]', 1, null, /record 1 .*not a year/],
      ['cell.csv', '"Country Name","Country Code","Indicator Name","Indicator Code","2020","2021",\r\n"Bulgaria","BGR","X","X.Y","1.5","n/a",\r\n', 2, 6, /column 6 \(2021\).*"n\/a"/],
      ['code.csv', '"Country Name","Country Code","Indicator Name","Indicator Code","2020",\r\n"Bulgaria","bg r","X","X.Y","1.5",\r\n', 2, 2, /Country Code/],
      ['twice.csv', '"Country Name","Country Code","Indicator Name","Indicator Code","2020",\r\n"Bulgaria","BGR","X","X.Y","1.5",\r\n"Bulgaria","BGR","X","X.Y","1.5",\r\n', 3, 2, /also on line 2/],
      ['short.csv', '"Country Name","Country Code","Indicator Name","Indicator Code","2020","2021",\r\n"Bulgaria","BGR","X","X.Y","1.5",\r\n', 2, 7, /6 cells, the header 7/],
      ['year.csv', '"Country Name","Country Code","Indicator Name","Indicator Code","1960","YR1961",\r\n', 1, 6, /not a year/],
      ['vintage.csv', '"Data Source","World Development Indicators",\r\n\r\n"Last Updated Date","26/10/2023",\r\n', 3, 2, /YYYY-MM-DD/],
      ['other.csv', 'a,b,c,d,e,f\r\n1,2,3,4,5,6\r\n', 1, null, /not a World Bank WDI file/],
    ];
    for (const [name, text, line, column, message] of cases) {
      await writeFile(join(dir, name), text);
      await assert.rejects(parseWdiFile(join(dir, name)), (e: unknown) => {
        assert.ok(e instanceof MalformedSourceError, `${name}: ${String(e)}`);
        assert.equal(e.file, name);
        assert.equal(e.row, line, `${name}: ${e.message}`);
        if (column !== null) assert.equal((e as MalformedCellError).column, column, `${name}: ${e.message}`);
        assert.match(e.message, message, name);
        return true;
      });
    }
  });
});

describe('WDI snapshot', () => {
  test('no-op re-ingest, all-or-nothing, other indicators kept, duplicates across files rejected, command', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await writeWdiBulkCsv(join(src, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_1.csv'), IND, ROWS);
    await writeWdiApiJson(join(src, 'gdp.json'), { code: 'NY.GDP.MKTP.KD.ZG', name: 'GDP growth (annual %)', lastUpdated: '2025-06-30' }, [{ country_code: 'BGR', country_name: 'Bulgaria', year: 2023, value: 1.9 }]);
    const lines: string[] = [];
    const outcome = await worldBankIngestCommand.run({ path: src, dataDir, options: {}, log: (l) => lines.push(l) });
    assert.deepEqual(outcome, { imported: 2, rows: 4, skipped: 0 });
    assert.deepEqual(await worldBankIndicatorsInSnapshot(dataDir), ['EG.FEC.RNEW.ZS', 'NY.GDP.MKTP.KD.ZG']);
    const before = await snapshotBytes(dataDir);
    assert.deepEqual(await worldBankIngestCommand.run({ path: src, dataDir, options: {}, log: () => {} }), { imported: 0, rows: 0, skipped: 2 });
    assert.deepEqual(await snapshotBytes(dataDir), before);

    const bad = await tempDir();
    await writeWdiBulkCsv(join(bad, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_2.csv'), IND, [{ country_code: 'BGR', country_name: 'Bulgaria', year: 2022, value: 24.4 }]);
    await writeFile(join(bad, 'broken.csv'), '"Country Name","Country Code","Indicator Name","Indicator Code","2020",\r\n"Bulgaria","BGR","X","X.Y","x",\r\n');
    await assert.rejects(ingestWorldBankFiles({ dataDir, path: bad, now: NOW }), (e: unknown) => e instanceof IngestRejectedError && e.problems.length === 1 && e.problems[0]!.file === 'broken.csv');
    assert.deepEqual(await snapshotBytes(dataDir), before);

    const dup = await tempDir();
    await writeWdiBulkCsv(join(dup, 'a.csv'), IND, [{ country_code: 'BGR', country_name: 'Bulgaria', year: 2022, value: 24.4 }]);
    await writeWdiApiJson(join(dup, 'b.json'), IND, [{ country_code: 'BGR', country_name: 'Bulgaria', year: 2022, value: 24.5 }]);
    await assert.rejects(ingestWorldBankFiles({ dataDir, path: dup, now: NOW }), /EG\.FEC\.RNEW\.ZS BGR 2022 given again in b\.json/);
    assert.deepEqual(await snapshotBytes(dataDir), before);

    // A new vintage of one indicator: the other indicator is untouched.
    await ingestWorldBankFiles({ dataDir, path: join(bad, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_2.csv'), now: NOW });
    const [obs] = await query((db) => loadWorldBank(db, dataDir), `SELECT indicator_code, country_code, year, value FROM wdi_observations ORDER BY ALL`);
    assert.deepEqual(obs, [
      { indicator_code: 'EG.FEC.RNEW.ZS', country_code: 'BGR', year: 2022, value: 24.4 },
      { indicator_code: 'NY.GDP.MKTP.KD.ZG', country_code: 'BGR', year: 2023, value: 1.9 },
    ]);
  });

  test('JSON answers of several pages: every page in one run, or the run is rejected', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    const page = (n: number, country: string, value: number) => JSON.stringify([
      { page: n, pages: 2, per_page: 1, total: 2, sourceid: '2', lastupdated: '2025-07-01' },
      [{ indicator: { id: 'NY.GDP.PCAP.CD', value: 'GDP per capita (current US$)' }, country: { id: country.slice(0, 2), value: country }, countryiso3code: country, date: '2023', value, unit: '', obs_status: '', decimal: 1 }],
    ]);
    await writeFile(join(src, 'p1.json'), page(1, 'BGR', 15900.5));
    await writeFile(join(src, 'p2.json'), page(2, 'ROU', 18400.25));
    await assert.rejects(ingestWorldBankFiles({ dataDir, path: join(src, 'p2.json'), now: NOW }), (e: unknown) => {
      assert.ok(e instanceof IngestRejectedError);
      assert.match(e.message, /p2\.json: NY\.GDP\.PCAP\.CD \(2 pages\): page\(s\) 1 missing/);
      return true;
    });
    assert.equal(existsSync(join(dataDir, 'wdi_observations.parquet')), false);
    await ingestWorldBankFiles({ dataDir, path: src, now: NOW });
    const [obs] = await query((db) => loadWorldBank(db, dataDir), 'SELECT country_code, value FROM wdi_observations ORDER BY country_code');
    assert.deepEqual(obs, [{ country_code: 'BGR', value: 15900.5 }, { country_code: 'ROU', value: 18400.25 }]);
  });
});
