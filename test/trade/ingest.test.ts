// The Comext SDMX-CSV parser on the real layout (header by name, LAST UPDATE, OBS_FLAG, stray spaces,
// leading-zero product codes), its rejections (file, line and column named), and the ingest: all or
// nothing, re-ingest a no-op, newer files revising observations, the command line.
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { parseTradeFile } from '../../domains/trade/ingest/parse.ts';
import { ingestTradeFiles } from '../../domains/trade/ingest/snapshot.ts';
import { runCli } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';
import { FIXTURE_NOW, HEADER, lines, tempDir, tradeFixtureCsv } from './fixtures.ts';

async function write(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

async function readParquet(file: string, sql = 'SELECT * FROM t ORDER BY ALL') {
  const db = await Database.open({ connections: 1 });
  try {
    await db.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${sqlStringLiteral(file)})`);
    return await db.all(sql);
  } finally {
    await db.close();
  }
}

describe('parser: the real SDMX-CSV layout', () => {
  test('the lines quoted from the API, with a BOM, stray spaces, OBS_FLAG, CONF_STATUS and quoted fields', async () => {
    const dir = await tempDir('trade-parse-');
    const file = await write(dir, 'real.csv', [
      '\uFEFFDATAFLOW,LAST UPDATE,freq,reporter,partner,product,flow,indicators,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,VN,030462,1,QUANTITY_IN_100KG,2024,90212.63,,',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,VN,030462,1,VALUE_IN_EUROS,2024,32313884 ,,',
      'ESTAT:DS-045409(1.0), 15/09/26 ,M, bg , WORLD ,1001, 2 ,VALUE_IN_EUROS, 2023-07 , 1234.5 , p ,F',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,M,BG,WORLD,1001,2,SUPPLEMENTARY_QUANTITY,2023-07,77,,',
      '"ESTAT:DS-045409(1.0)","01/02/2025 08:30",A,FR,WORLD,1003,1,VALUE_IN_EUROS,2024,,c,C',
      '',
    ].join('\r\n'));
    const { observations, skippedRows } = await parseTradeFile(file);
    assert.equal(skippedRows, 1);
    assert.deepEqual(observations.map(({ sourceRow, ...o }) => ({ line: sourceRow, ...o })), [
      { line: 2, reporter: 'DE', partner: 'VN', product: '030462', flow: 1, freq: 'A', period: '2024', indicator: 'QUANTITY_IN_100KG', value: '90212.63', flag: null, lastUpdate: '2026-09-15 11:00:00', dataflow: 'ESTAT:DS-045409(1.0)' },
      { line: 3, reporter: 'DE', partner: 'VN', product: '030462', flow: 1, freq: 'A', period: '2024', indicator: 'VALUE_IN_EUROS', value: '32313884', flag: null, lastUpdate: '2026-09-15 11:00:00', dataflow: 'ESTAT:DS-045409(1.0)' },
      { line: 4, reporter: 'BG', partner: 'WORLD', product: '1001', flow: 2, freq: 'M', period: '2023-07', indicator: 'VALUE_IN_EUROS', value: '1234.5', flag: 'p', lastUpdate: '2026-09-15 00:00:00', dataflow: 'ESTAT:DS-045409(1.0)' },
      { line: 6, reporter: 'FR', partner: 'WORLD', product: '1003', flow: 1, freq: 'A', period: '2024', indicator: 'VALUE_IN_EUROS', value: null, flag: 'c', lastUpdate: '2025-02-01 08:30:00', dataflow: 'ESTAT:DS-045409(1.0)' },
    ]);
  });

  test('columns in another order, without LAST UPDATE and OBS_FLAG (SDMX-CSV 2.0 STRUCTURE_ID)', async () => {
    const dir = await tempDir('trade-parse-');
    const file = await write(dir, 'v2.csv', [
      'STRUCTURE,STRUCTURE_ID,TIME_PERIOD,OBS_VALUE,indicators,flow,product,partner,reporter,freq',
      'dataflow,ESTAT:DS-045409(1.0),2022,100,VALUE_IN_EUROS,1,1005,UA,PL,A',
    ].join('\n'));
    const { observations } = await parseTradeFile(file);
    assert.deepEqual(observations, [{
      reporter: 'PL', partner: 'UA', product: '1005', flow: 1, freq: 'A', period: '2022', indicator: 'VALUE_IN_EUROS',
      value: '100', flag: null, lastUpdate: null, dataflow: 'ESTAT:DS-045409(1.0)', sourceRow: 2,
    }]);
  });

  test('lines numbered as csv-parse numbers them: blank lines skipped, a quoted line break continues the record', async () => {
    const dir = await tempDir('trade-parse-');
    const text = [
      HEADER,
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,WORLD,1001,1,VALUE_IN_EUROS,2024,10,',
      '',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,WORLD,1001,2,VALUE_IN_EUROS,2024,20,"p',
      'q"',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,WORLD,1003,1,VALUE_IN_EUROS,2024,30,',
    ];
    const good = await write(dir, 'lines.csv', `${text.join('\r\n')}\r\n`);
    const { observations } = await parseTradeFile(good);
    // The CRLF inside the quotes counts as two lines (csv-parse counts its CR and its LF).
    assert.deepEqual(observations.map((o) => [o.sourceRow, o.flow, o.product, o.flag]), [[2, 1, '1001', null], [6, 2, '1001', 'p\r\nq'], [7, 1, '1003', null]]);
    const bad = await write(dir, 'bad-lines.csv', `${[...text, text[5]!.replace(',1,VALUE', ',3,VALUE')].join('\n')}\n`);
    await assert.rejects(parseTradeFile(bad), /bad-lines\.csv, row 7: column flow: "3"/);
  });

  test('a row in a form only the JavaScript reader reads (a no-break space in LAST UPDATE, lower-case codes) is kept with its values', async () => {
    const dir = await tempDir('trade-parse-');
    const file = await write(dir, 'js.csv', [
      HEADER,
      'ESTAT:DS-045409(1.0),15/09/26\u00a011:30:00,a,de,\u00a0world ,1001,1,value_in_euros,2024,10,',
      'ESTAT:DS-045409(1.0),15/09/26 11:00:00,A,DE,WORLD,1001,1,QUANTITY_IN_100KG,2024,5,',
    ].join('\n'));
    const { observations } = await parseTradeFile(file);
    assert.deepEqual(observations.map((o) => [o.sourceRow, o.reporter, o.partner, o.freq, o.indicator, o.lastUpdate]), [
      [2, 'DE', 'WORLD', 'A', 'VALUE_IN_EUROS', '2026-09-15 11:30:00'],
      [3, 'DE', 'WORLD', 'A', 'QUANTITY_IN_100KG', '2026-09-15 11:00:00'],
    ]);
  });

  const row = (fields: Partial<Record<string, string>>) => {
    const base: Record<string, string> = {
      DATAFLOW: 'ESTAT:DS-045409(1.0)', 'LAST UPDATE': '15/09/26 11:00:00', freq: 'A', reporter: 'DE', partner: 'WORLD', product: '1001',
      flow: '1', indicators: 'VALUE_IN_EUROS', TIME_PERIOD: '2024', OBS_VALUE: '10', OBS_FLAG: '',
    };
    return HEADER.split(',').map((c) => fields[c] ?? base[c]).join(',');
  };
  const malformed: Array<[string, string, RegExp]> = [
    ['flow', `${HEADER}\n${row({})}\n${row({ flow: '3', partner: 'US' })}\n`, /bad\.csv, row 3: column flow: "3"/],
    ['period', `${HEADER}\n${row({ TIME_PERIOD: '2024Q1' })}\n`, /row 2: column TIME_PERIOD: "2024Q1" is neither YYYY nor YYYY-MM/],
    ['freq mismatch', `${HEADER}\n${row({ TIME_PERIOD: '2024-01' })}\n`, /row 2: column TIME_PERIOD: 2024-01 does not match freq A/],
    ['freq', `${HEADER}\n${row({ freq: 'Q' })}\n`, /row 2: column freq/],
    ['decimal comma', `${HEADER}\n${row({ OBS_VALUE: '"12,5"' })}\n`, /row 2: column OBS_VALUE: "12,5" is not a number/],
    ['value text', `${HEADER}\n${row({ OBS_VALUE: 'n/a' })}\n`, /row 2: column OBS_VALUE: "n\/a" is not a number/],
    ['indicator', `${HEADER}\n${row({ indicators: 'VALUE_IN_USD' })}\n`, /row 2: column indicators: "VALUE_IN_USD"/],
    ['last update', `${HEADER}\n${row({ 'LAST UPDATE': '2026-09-15' })}\n`, /row 2: column LAST UPDATE/],
    ['last update date', `${HEADER}\n${row({ 'LAST UPDATE': '31/02/26 10:00:00' })}\n`, /row 2: column LAST UPDATE: "31\/02\/26 10:00:00" is not a valid date/],
    ['product', `${HEADER}\n${row({ product: '10 01' })}\n`, /row 2: column product/],
    ['reporter', `${HEADER}\n${row({ reporter: 'D' })}\n`, /row 2: column reporter/],
    ['duplicate', `${HEADER}\n${row({})}\n${row({ OBS_VALUE: '11' })}\n`, /row 3: duplicate observation DE WORLD 1001 1 2024 VALUE_IN_EUROS \(also on line 2\)/],
    ['missing column', 'DATAFLOW,freq,reporter,partner,product,flow,TIME_PERIOD,OBS_VALUE\nx,A,DE,WORLD,1001,1,2024,1\n', /row 1: not a Comext SDMX-CSV extract: missing column\(s\) indicators/],
    ['column count', `${HEADER}\n${row({})},extra\n`, /bad\.csv, row 2: not valid CSV/],
    ['no observations', `${HEADER}\n`, /holds no VALUE_IN_EUROS or QUANTITY_IN_100KG observations/],
    ['empty', '', /the file is empty/],
  ];
  for (const [name, text, message] of malformed) {
    test(`rejects a file with a bad ${name}, naming the file, line and column`, async () => {
      const dir = await tempDir('trade-parse-');
      const file = await write(dir, 'bad.csv', text);
      await assert.rejects(parseTradeFile(file), (error: unknown) => {
        assert.ok(error instanceof MalformedSourceError, String(error));
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

describe('ingest', () => {
  test('pivot-ready observations and an import record; the same file again is a no-op', async () => {
    const dir = await tempDir('trade-ingest-');
    const dataDir = path.join(dir, 'parquet');
    const file = await write(dir, 'extract.csv', tradeFixtureCsv());
    const first = await ingestTradeFiles([file], { dataDir, now: () => FIXTURE_NOW });
    // 34 (reporter, partner, product, flow, period) rows, two indicators each.
    assert.equal(first.observations, 68);
    assert.deepEqual(first.imported.map((r) => [r.dataset, r.source, r.sourceFile, r.rowCount, r.importDate]), [
      ['trade_observations', 'comext-sdmx-csv', 'extract.csv', 68, '2026-11-20T10:00:00.000Z'],
    ]);
    const before = await readFile(path.join(dataDir, 'trade_observations.parquet'));
    const again = await ingestTradeFiles([file], { dataDir });
    assert.deepEqual([again.imported, again.skipped], [[], [file]]);
    assert.deepEqual(await readFile(path.join(dataDir, 'trade_observations.parquet')), before);
    const ledger = await readParquet(path.join(dataDir, 'imports.parquet'), 'SELECT count(*)::INTEGER AS n FROM t');
    assert.equal(ledger[0].n, 1);
  });

  test('a newer file revises the observations it carries and keeps the others', async () => {
    const dir = await tempDir('trade-ingest-');
    const dataDir = path.join(dir, 'parquet');
    await ingestTradeFiles([await write(dir, 'a.csv', tradeFixtureCsv())], { dataDir });
    // RO WORLD 1001 imports 2023 revised (2200 -> 2300, quantity 1500 -> 1550); a new year 2024 added.
    const revision = [HEADER, ...lines('RO', 'WORLD', '1001', 1, '2023', 2300, 1550, '01/10/26 09:00:00'), ...lines('RO', 'WORLD', '1001', 1, '2024', 2400, 1600)].join('\n');
    const result = await ingestTradeFiles([await write(dir, 'b.csv', revision)], { dataDir });
    assert.equal(result.observations, 70);
    const rows = await readParquet(path.join(dataDir, 'trade_observations.parquet'),
      `SELECT period, indicator, CAST(value AS VARCHAR) AS value, source_file, strftime(last_update, '%Y-%m-%d %H:%M') AS last_update
         FROM t WHERE reporter = 'RO' AND partner = 'WORLD' AND flow = 1 AND period >= '2022' ORDER BY period, indicator`);
    assert.deepEqual(rows, [
      { period: '2022', indicator: 'QUANTITY_IN_100KG', value: '600.00', source_file: 'a.csv', last_update: '2026-09-15 11:00' },
      { period: '2022', indicator: 'VALUE_IN_EUROS', value: null, source_file: 'a.csv', last_update: '2026-09-15 11:00' },
      { period: '2023', indicator: 'QUANTITY_IN_100KG', value: '1550.00', source_file: 'b.csv', last_update: '2026-10-01 09:00' },
      { period: '2023', indicator: 'VALUE_IN_EUROS', value: '2300.00', source_file: 'b.csv', last_update: '2026-10-01 09:00' },
      { period: '2024', indicator: 'QUANTITY_IN_100KG', value: '1600.00', source_file: 'b.csv', last_update: '2026-09-15 11:00' },
      { period: '2024', indicator: 'VALUE_IN_EUROS', value: '2400.00', source_file: 'b.csv', last_update: '2026-09-15 11:00' },
    ]);
  });

  test('within one batch the later file wins', async () => {
    const dir = await tempDir('trade-ingest-');
    const dataDir = path.join(dir, 'parquet');
    const one = await write(dir, '1.csv', [HEADER, ...lines('PL', 'UA', '1001', 1, '2022', 100, 10)].join('\n'));
    const two = await write(dir, '2.csv', [HEADER, ...lines('PL', 'UA', '1001', 1, '2022', 200, 20)].join('\n'));
    const result = await ingestTradeFiles([one, two], { dataDir });
    assert.equal(result.imported.length, 2);
    const rows = await readParquet(path.join(dataDir, 'trade_observations.parquet'), 'SELECT indicator, CAST(value AS VARCHAR) AS value FROM t ORDER BY indicator');
    assert.deepEqual(rows, [{ indicator: 'QUANTITY_IN_100KG', value: '20.00' }, { indicator: 'VALUE_IN_EUROS', value: '200.00' }]);
  });

  test('a malformed file rejects the whole batch, every bad file named; the snapshot is unchanged', async () => {
    const dir = await tempDir('trade-ingest-');
    const dataDir = path.join(dir, 'parquet');
    await ingestTradeFiles([await write(dir, 'a.csv', tradeFixtureCsv())], { dataDir });
    const snapshot = await readFile(path.join(dataDir, 'trade_observations.parquet'));
    const ledger = await readFile(path.join(dataDir, 'imports.parquet'));
    const good = await write(dir, 'good.csv', [HEADER, ...lines('PL', 'UA', '1001', 1, '2022', 100, 10)].join('\n'));
    const bad1 = await write(dir, 'bad1.csv', [HEADER, ...lines('PL', 'UA', '1001', 1, '2022', 100, 10)].join('\n').replace(',1,VALUE', ',x,VALUE'));
    const bad2 = await write(dir, 'bad2.csv', `${HEADER}\nESTAT:DS-045409(1.0),15/09/26,A,PL,UA,1001,1,VALUE_IN_EUROS,2022,abc,\n`);
    await assert.rejects(ingestTradeFiles([good, bad1, bad2], { dataDir }), (error: unknown) => {
      assert.ok(error instanceof IngestRejectedError);
      assert.match(error.message, /bad1\.csv, row 3: column flow: "x"/);
      assert.match(error.message, /bad2\.csv, row 2: column OBS_VALUE: "abc" is not a number/);
      assert.doesNotMatch(error.message, /good\.csv/);
      return true;
    });
    assert.deepEqual(await readFile(path.join(dataDir, 'trade_observations.parquet')), snapshot);
    assert.deepEqual(await readFile(path.join(dataDir, 'imports.parquet')), ledger);
  });

  // The first run as the child process npm starts; the others in this process (test/helpers/ingestCli.ts).
  test('npm run ingest -- trade <folder>: exit 0, then 1 on a malformed file', async () => {
    const dir = await tempDir('trade-cli-');
    const source = path.join(dir, 'source');
    const dataDir = path.join(dir, 'parquet');
    await mkdir(source);
    await write(source, 'extract.csv', tradeFixtureCsv());
    await write(source, 'notes.txt', 'not an extract');
    const done = await runCli('bin/ingest.ts', ['trade', source, '--data-dir', dataDir]);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /extract\.csv: 68 observation\(s\)/);
    assert.match(done.stderr, /imported 1 file\(s\), 68 row\(s\); skipped 0/);
    const again = await ingestInProcess(['trade', source, '--data-dir', dataDir]);
    assert.match(again.stderr, /imported 0 file\(s\), 0 row\(s\); skipped 1/);
    const bad = await write(dir, 'bad.csv', `${HEADER}\nESTAT:DS-045409(1.0),15/09/26,A,PL,UA,1001,7,VALUE_IN_EUROS,2022,1,\n`);
    const rejected = await ingestInProcess(['trade', bad, '--data-dir', dataDir]);
    assert.equal(rejected.code, 1);
    assert.match(rejected.stderr, /bad\.csv, row 2: column flow/);
  });
});
