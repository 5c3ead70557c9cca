// The generic Eurostat reader: the real TSV extracts (values checked against the raw lines read here
// independently), every cell kind (value, value flag, :, : c), gzip, each period kind and spelling,
// the \time header, SDMX-CSV 1.0 and 2.0, malformed files (line and column), and the snapshot
// (vintage replacement, no-op re-ingest, all-or-nothing), the writers and the ingest command.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { eurostatIngestCommand } from '../../ingest/eurostat/command.ts';
import { MalformedCellError } from '../../ingest/eurostat/errors.ts';
import { eurostatDatasetsInSnapshot, loadEurostat } from '../../ingest/eurostat/load.ts';
import { writeEurostatSdmxCsv, writeEurostatTsv, type EurostatWriteRow } from '../../ingest/eurostat/write.ts';
import { datasetIdFromFileName, datasetIdFromStructure, parseEurostatFile, type EurostatObservation } from '../../ingest/eurostat/parse.ts';
import { parsePeriod } from '../../ingest/eurostat/periods.ts';
import { ingestEurostatFiles } from '../../ingest/eurostat/snapshot.ts';
import { loadImportLedger } from '../../ingest/commit.ts';
import { Database } from '../../engine/database.ts';
import { query, realDir, snapshotBytes, tempDir } from './helpers.ts';

const realEstat = join(realDir, 'eurostat_nrg_ind_ren');
const REAL_REN = join(realEstat, 'estat_nrg_ind_ren.tsv');
const REAL_SDG = join(realEstat, 'sdg_08_10_tabular.tsv');
const skipReal = existsSync(REAL_REN) && existsSync(REAL_SDG) ? false : `real Eurostat extracts absent from ${realEstat}`;

const NOW = () => new Date('2026-01-02T03:04:05.000Z');

/** The raw TSV as a map "series key cell" -> [period labels, cells], read with plain string splits. */
async function rawTsv(file: string): Promise<{ periods: string[]; rows: Map<string, string[]> }> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  const periods = lines[0]!.split('\t').slice(1).map((p) => p.trim());
  const rows = new Map(lines.slice(1).map((l) => {
    const [key, ...cells] = l.split('\t');
    return [key!, cells] as const;
  }));
  return { periods, rows };
}

function find(observations: EurostatObservation[], seriesKey: string, period: string): EurostatObservation | undefined {
  return observations.find((o) => o.series_key === seriesKey && o.time_period === period);
}

describe('Eurostat TSV: the real extracts', { skip: skipReal }, () => {
  test('nrg_ind_ren: dataset from the name, dimensions, values unchanged, ":" gives no row', async () => {
    const parsed = await parseEurostatFile(REAL_REN);
    const raw = await rawTsv(REAL_REN);
    assert.equal(parsed.datasetId, 'nrg_ind_ren');
    assert.equal(parsed.format, 'estat-tsv');
    assert.deepEqual(parsed.dimensionKeys, ['freq', 'nrg_bal', 'unit', 'geo']);
    assert.equal(parsed.seriesCount, raw.rows.size);
    // Count of non-missing cells, from the raw text.
    let present = 0;
    for (const cells of raw.rows.values()) present += cells.filter((c) => c.trim() !== ':' && c.trim() !== '').length;
    assert.equal(parsed.observationCount, present);
    assert.equal(parsed.observations.length, present);
    // Several cells, checked against the raw line.
    const samples: Array<[string, string]> = [['A,REN,PC,AT', '2004'], ['A,REN,PC,AL', '2024'], ['A,REN_ELC,PC,EL', '2023'], ['A,REN,PC,EU27_2020', '2015'], ['A,REN_TRA,PC,DE', '2010']];
    for (const [key, period] of samples) {
      const cell = raw.rows.get(key)![raw.periods.indexOf(period)]!;
      const o = find(parsed.observations, key.replaceAll(',', '.'), period);
      assert.ok(o, `${key} ${period}`);
      assert.equal(o.obs_value, Number(cell.trim().split(' ')[0]), `${key} ${period}: raw ${JSON.stringify(cell)}`);
      assert.equal(o.obs_flag, null);
      assert.equal(o.geo, key.split(',')[3]);
      assert.equal(o.unit, 'PC');
      assert.equal(o.freq, 'A');
      assert.deepEqual({ ...o.dims }, { freq: 'A', nrg_bal: key.split(',')[1], unit: 'PC', geo: key.split(',')[3] });
      assert.equal(o.period_start, `${period}-01-01`);
    }
    // Hand-read from the file: AT 2004 is 22.553, BA starts missing.
    assert.equal(find(parsed.observations, 'A.REN.PC.AT', '2004')?.obs_value, 22.553);
    const baCells = raw.rows.get('A,REN,PC,BA')!;
    assert.equal(baCells[0]!.trim(), ':');
    assert.equal(find(parsed.observations, 'A.REN.PC.BA', '2004'), undefined);
  });

  test('sdg_08_10: "_tabular" name, flags p / e / b kept, a real 0 stays 0', async () => {
    const parsed = await parseEurostatFile(REAL_SDG);
    assert.equal(parsed.datasetId, 'sdg_08_10');
    assert.deepEqual(parsed.dimensionKeys, ['freq', 'unit', 'na_item', 'geo']);
    const text = await readFile(REAL_SDG, 'utf8');
    // Flags counted in the raw text: a number, a space and letters, then a tab or the line end.
    const counts = new Map<string, number>();
    for (const m of text.matchAll(/\d ([a-z]+)(?=\t|\n|$)/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const parsedCounts = new Map<string, number>();
    for (const o of parsed.observations) if (o.obs_flag) parsedCounts.set(o.obs_flag, (parsedCounts.get(o.obs_flag) ?? 0) + 1);
    assert.deepEqual(parsedCounts, counts);
    assert.ok((counts.get('p') ?? 0) > 0 && (counts.get('b') ?? 0) > 0);
    const be = find(parsed.observations, 'A.CLV20_EUR_HAB.B1GQ.BE', '2009');
    assert.deepEqual([be?.obs_value, be?.obs_flag], [38740, 'b']);
    // Bosnia's line has real zeros ("0 ", "0 b"): kept as 0, as published.
    const raw = await rawTsv(REAL_SDG);
    const ba = raw.rows.get('A,CLV20_EUR_HAB,B1GQ,BA')!;
    const i = ba.findIndex((c) => c === '0 b');
    assert.ok(i >= 0);
    const o = find(parsed.observations, 'A.CLV20_EUR_HAB.B1GQ.BA', raw.periods[i]!);
    assert.deepEqual([o?.obs_value, o?.obs_flag], [0, 'b']);
  });
});

const OLD_TSV = [
  'unit,geo\\time\t2023Q1 \t2023Q2 \t2023-Q3 ',
  'PC,EL\t1.5 \t2.5 p\t: ',
  'PC,BG\t: c\t:\t-0.25 ep',
  '',
].join('\n');

describe('Eurostat TSV: cells, periods, gzip', () => {
  test('old \\time header, 2023Q1 and 2023-Q3 spellings, value / value flag / : / : c / bare :', async () => {
    const dir = await tempDir();
    const file = join(dir, 'estat_teiqq.tsv');
    await writeFile(file, OLD_TSV);
    const parsed = await parseEurostatFile(file);
    assert.equal(parsed.datasetId, 'teiqq');
    assert.deepEqual(parsed.dimensionKeys, ['unit', 'geo']);
    const rows = parsed.observations.map((o) => [o.series_key, o.freq, o.time_period, o.period_start, o.obs_value, o.obs_flag, o.line]);
    assert.deepEqual(rows, [
      ['PC.EL', 'Q', '2023-Q1', '2023-01-01', 1.5, null, 2],
      ['PC.EL', 'Q', '2023-Q2', '2023-04-01', 2.5, 'p', 2],
      ['PC.BG', 'Q', '2023-Q1', '2023-01-01', null, 'c', 3],
      ['PC.BG', 'Q', '2023-Q3', '2023-07-01', -0.25, 'ep', 3],
    ]);
    assert.equal(parsed.firstPeriod, '2023-Q1');
    assert.equal(parsed.lastPeriod, '2023-Q3');
    assert.equal(parsed.observations[0]!.geo, 'EL');
  });

  test('trailing tabs and CRLF line ends are tolerated', async () => {
    const dir = await tempDir();
    const file = join(dir, 'estat_x.tsv');
    await writeFile(file, 'freq,geo\\TIME_PERIOD\t2022 \t2023 \t\r\nA,AT\t1 \t2 p\t\r\nA,BG\t3 \t: \r\n');
    const parsed = await parseEurostatFile(file);
    assert.deepEqual(parsed.observations.map((o) => [o.geo, o.time_period, o.obs_value, o.obs_flag]), [['AT', '2022', 1, null], ['AT', '2023', 2, 'p'], ['BG', '2022', 3, null]]);
  });

  test('each period kind: annual, quarterly, monthly (2023-01, 2023M01), half-yearly (2023-S1, 2023S2), daily', () => {
    const cases: Array<[string, string, string, string]> = [
      ['2023 ', '2023', 'A', '2023-01-01'],
      ['2023-Q4', '2023-Q4', 'Q', '2023-10-01'],
      ['2023q2', '2023-Q2', 'Q', '2023-04-01'],
      ['2023-01', '2023-01', 'M', '2023-01-01'],
      ['2023M11', '2023-11', 'M', '2023-11-01'],
      ['2023-S1', '2023-S1', 'S', '2023-01-01'],
      ['2023S2', '2023-S2', 'S', '2023-07-01'],
      ['2023-H2', '2023-S2', 'S', '2023-07-01'],
      ['2024-02-29', '2024-02-29', 'D', '2024-02-29'],
    ];
    for (const [text, label, freq, start] of cases) assert.deepEqual(parsePeriod(text), { label, freq, start }, text);
    for (const bad of ['2023-Q5', '2023-13', '2023-02-30', '23', '2023-W01', '']) assert.equal(parsePeriod(bad), null, bad);
  });

  test('monthly and half-yearly TSV with a freq dimension; gzip (by content) gives the same observations', async () => {
    const dir = await tempDir();
    const tsv = ['freq,coicop,geo\\TIME_PERIOD\t2023-01 \t2023-02 ', 'M,CP00,EA20\t8.6 \t8.5 e', ''].join('\n');
    await writeFile(join(dir, 'prc_hicp_manr.tsv'), tsv);
    await writeFile(join(dir, 'prc_hicp_manr.tsv.gz'), gzipSync(tsv));
    const plain = await parseEurostatFile(join(dir, 'prc_hicp_manr.tsv'));
    const gz = await parseEurostatFile(join(dir, 'prc_hicp_manr.tsv.gz'));
    assert.equal(gz.datasetId, 'prc_hicp_manr');
    assert.deepEqual(gz.observations, plain.observations);
    assert.deepEqual(plain.observations.map((o) => [o.freq, o.unit, o.geo, o.time_period, o.obs_value, o.obs_flag]), [
      ['M', null, 'EA20', '2023-01', 8.6, null],
      ['M', null, 'EA20', '2023-02', 8.5, 'e'],
    ]);
    const half = ['freq,product,nrg_cons,unit,tax,currency,geo\\TIME_PERIOD\t2023-S1 \t2023-S2 ', 'S,6000,KWH2500-4999,KWH,I_TAX,EUR,BG\t0.1178 \t0.1205 p', ''].join('\n');
    await writeFile(join(dir, 'estat_nrg_pc_204.tsv'), half);
    const h = await parseEurostatFile(join(dir, 'estat_nrg_pc_204.tsv'));
    assert.deepEqual(h.observations.map((o) => [o.series_key, o.time_period, o.period_start, o.obs_value, o.obs_flag, o.dims.nrg_cons]), [
      ['S.6000.KWH2500-4999.KWH.I_TAX.EUR.BG', '2023-S1', '2023-01-01', 0.1178, null, 'KWH2500-4999'],
      ['S.6000.KWH2500-4999.KWH.I_TAX.EUR.BG', '2023-S2', '2023-07-01', 0.1205, 'p', 'KWH2500-4999'],
    ]);
  });

  test('a gzip file that unzips past INGEST_MAX_UNZIPPED_BYTES is refused naming the file and the bound (a gzip bomb)', async () => {
    const dir = await tempDir();
    const rows = Array.from({ length: 120_000 }, (_, index) => `M,CP${index},EA20\t8.6 \t8.5 e\n`);
    const tsv = `freq,coicop,geo\\TIME_PERIOD\t2023-01 \t2023-02 \n${rows.join('')}`;
    const bomb = gzipSync(tsv, { level: 9 });
    // The file itself is within the bound; what it unzips to is three times past it.
    assert.ok(bomb.length < 1_000_000 && tsv.length > 3_000_000, `the bomb is ${bomb.length} bytes`);
    const file = join(dir, 'prc_hicp_manr.tsv.gz');
    await writeFile(file, bomb);
    const before = process.env.INGEST_MAX_UNZIPPED_BYTES;
    process.env.INGEST_MAX_UNZIPPED_BYTES = '1000000';
    try {
      await assert.rejects(parseEurostatFile(file), (error: Error) => {
        assert.ok(error instanceof MalformedSourceError, String(error));
        assert.match(error.message, /prc_hicp_manr\.tsv\.gz.*the gzip file unzips past the bound, over the bound of 1000000 bytes unzipped from one file \(INGEST_MAX_UNZIPPED_BYTES/s);
        return true;
      });
    } finally {
      if (before === undefined) delete process.env.INGEST_MAX_UNZIPPED_BYTES;
      else process.env.INGEST_MAX_UNZIPPED_BYTES = before;
    }
  });

  test('dataset ids from names, --dataset overrides the name', async () => {
    assert.equal(datasetIdFromFileName('/x/estat_nrg_bal_s.tsv.gz'), 'nrg_bal_s');
    assert.equal(datasetIdFromFileName('estat_nrg_bal_s_filtered_en.csv'), 'nrg_bal_s');
    assert.equal(datasetIdFromFileName('NRG_CB_E.tsv'), 'nrg_cb_e');
    assert.equal(datasetIdFromFileName('export (3).tsv'), null);
    assert.equal(datasetIdFromStructure('ESTAT:DS-045409(1.0)'), 'ds-045409');
    assert.equal(datasetIdFromStructure('ESTAT:NRG_BAL_S'), 'nrg_bal_s');
    assert.equal(datasetIdFromStructure('not a flow'), null);
    const dir = await tempDir();
    const file = join(dir, 'export (3).tsv');
    await writeFile(file, OLD_TSV);
    await assert.rejects(parseEurostatFile(file), (e: unknown) => e instanceof MalformedSourceError && /--dataset/.test(e.message));
    assert.equal((await parseEurostatFile(file, { dataset: 'TEIQQ' })).datasetId, 'teiqq');
  });
});

describe('Eurostat SDMX-CSV', () => {
  test('1.0 with OBS_FLAG and CONF_STATUS: dataset from DATAFLOW, LAST UPDATE, missing with and without flag', async () => {
    const dir = await tempDir();
    const file = join(dir, 'anything.csv');
    await writeFile(file, [
      'DATAFLOW,LAST UPDATE,freq,nrg_bal,siec,unit,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS',
      'ESTAT:NRG_BAL_S(1.0),14/02/25 23:00:00,A,IMP,TOTAL,KTOE,DE,2022,"182345.678",,',
      'ESTAT:NRG_BAL_S(1.0),15/02/25 11:00:00,A,IMP,TOTAL,KTOE,DE,2023,170001,p,F',
      'ESTAT:NRG_BAL_S(1.0),14/02/25 23:00:00,A,IMP,TOTAL,KTOE,MT,2023,,,C',
      'ESTAT:NRG_BAL_S(1.0),14/02/25 23:00:00,A,IMP,TOTAL,KTOE,CY,2023,,,',
      'ESTAT:NRG_BAL_S(1.0),14/02/25 23:00:00,A,EXP,TOTAL,KTOE,DE,2023,:,z,',
      '',
    ].join('\r\n'));
    const parsed = await parseEurostatFile(file);
    assert.equal(parsed.format, 'sdmx-csv-1.0');
    assert.equal(parsed.datasetId, 'nrg_bal_s');
    assert.equal(parsed.lastUpdate, '2025-02-15T11:00:00');
    assert.deepEqual(parsed.dimensionKeys, ['freq', 'nrg_bal', 'siec', 'unit', 'geo']);
    assert.deepEqual(parsed.observations.map((o) => [o.series_key, o.time_period, o.obs_value, o.obs_flag, o.line]), [
      ['A.IMP.TOTAL.KTOE.DE', '2022', 182345.678, null, 2],
      ['A.IMP.TOTAL.KTOE.DE', '2023', 170001, 'p', 3],
      ['A.IMP.TOTAL.KTOE.MT', '2023', null, 'c', 4],
      ['A.EXP.TOTAL.KTOE.DE', '2023', null, 'z', 6],
    ]);
    await assert.rejects(parseEurostatFile(file, { dataset: 'nrg_cb_e' }), (e: unknown) => e instanceof MalformedCellError && e.row === 2 && e.column === 1 && /nrg_cb_e/.test(e.message));
  });

  test('1.0 without OBS_FLAG; 2.0 (STRUCTURE, STRUCTURE_ID) monthly HICP', async () => {
    const dir = await tempDir();
    const v1 = join(dir, 'v1.csv');
    await writeFile(v1, 'DATAFLOW,LAST UPDATE,freq,unit,geo,TIME_PERIOD,OBS_VALUE\nESTAT:SDG_08_10(1.0),01/03/24 23:00:00,A,CLV20_EUR_HAB,BG,2023,8390\n');
    const p1 = await parseEurostatFile(v1);
    assert.deepEqual(p1.observations.map((o) => [o.dataset_id, o.geo, o.obs_value, o.obs_flag]), [['sdg_08_10', 'BG', 8390, null]]);
    const v2 = join(dir, 'v2.csv');
    await writeFile(v2, [
      'STRUCTURE,STRUCTURE_ID,freq,unit,coicop,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS',
      'dataflow,ESTAT:PRC_HICP_MANR(1.0),M,RCH_A,CP00,EA20,2026-06,1.9,p,',
      'dataflow,ESTAT:PRC_HICP_MANR(1.0),M,RCH_A,CP00,EA20,2026M05,2.1,,F',
      '',
    ].join('\n'));
    const p2 = await parseEurostatFile(v2);
    assert.equal(p2.format, 'sdmx-csv-2.0');
    assert.equal(p2.lastUpdate, null);
    assert.deepEqual(p2.observations.map((o) => [o.dataset_id, o.series_key, o.freq, o.unit, o.time_period, o.period_start, o.obs_value, o.obs_flag]), [
      ['prc_hicp_manr', 'M.RCH_A.CP00.EA20', 'M', 'RCH_A', '2026-06', '2026-06-01', 1.9, 'p'],
      ['prc_hicp_manr', 'M.RCH_A.CP00.EA20', 'M', 'RCH_A', '2026-05', '2026-05-01', 2.1, null],
    ]);
    assert.deepEqual(p2.firstPeriod, '2026-05');
  });
});

describe('Eurostat: malformed files name the line and column', () => {
  const cases: Array<[string, string, number | null, number | null, RegExp]> = [
    ['bad cell', 'freq,geo\\TIME_PERIOD\t2022 \t2023 \nA,AT\t1.5 \t1,5 \n', 2, 3, /column 3 \(2023\).*"1,5 "/],
    ['flag with a digit', 'freq,geo\\TIME_PERIOD\t2022 \nA,AT\t1.5 p2\n', 2, 2, /column 2/],
    ['short line', 'freq,geo\\TIME_PERIOD\t2022 \t2023 \nA,AT\t1.5 \t2 \nA,BG\t1 \n', 3, 3, /not valid TSV: the line has 2 cells, the header 3/],
    ['bad period label', 'freq,geo\\TIME_PERIOD\t2022 \t20X3 \nA,AT\t1.5 \t2 \n', 1, 3, /"20X3 " is not a period/],
    ['key with missing part', 'freq,geo\\TIME_PERIOD\t2022 \nA\t1.5 \n', 2, 1, /2 non-empty parts/],
    ['series twice', 'freq,geo\\TIME_PERIOD\t2022 \nA,AT\t1 \nA,AT\t2 \n', 3, 1, /also on line 2/],
    ['value in a period of another frequency', 'freq,geo\\TIME_PERIOD\t2022 \t2022-Q1 \nA,AT\t1 \t2 \n', 2, 3, /freq A/],
    ['not Eurostat', 'a,b,c\n1,2,3\n', 1, null, /not a Eurostat file/],
    ['SDMX value not a number', 'DATAFLOW,LAST UPDATE,freq,geo,TIME_PERIOD,OBS_VALUE\nESTAT:X(1.0),01/01/24 00:00:00,A,AT,2023,n/a\n', 2, 6, /OBS_VALUE/],
    ['SDMX bad LAST UPDATE', 'DATAFLOW,LAST UPDATE,freq,geo,TIME_PERIOD,OBS_VALUE\nESTAT:X(1.0),2024/01/01,A,AT,2023,1\n', 2, 2, /LAST UPDATE/],
    ['SDMX missing OBS_VALUE column', 'DATAFLOW,LAST UPDATE,freq,geo,TIME_PERIOD\nESTAT:X(1.0),01/01/24 00:00:00,A,AT,2023\n', 1, null, /OBS_VALUE/],
    ['SDMX two datasets', 'DATAFLOW,freq,geo,TIME_PERIOD,OBS_VALUE\nESTAT:X(1.0),A,AT,2023,1\nESTAT:Y(1.0),A,AT,2023,1\n', 3, 1, /one dataset per file/],
  ];
  for (const [name, text, line, column, message] of cases) {
    test(name, async () => {
      const dir = await tempDir();
      const file = join(dir, 'estat_x.tsv');
      await writeFile(file, text);
      await assert.rejects(parseEurostatFile(file), (e: unknown) => {
        assert.ok(e instanceof MalformedSourceError, String(e));
        assert.equal(e.file, 'estat_x.tsv');
        assert.equal(e.row, line, e.message);
        if (column !== null) assert.equal((e as MalformedCellError).column, column, e.message);
        assert.match(e.message, message);
        return true;
      });
    });
  }

  test('a corrupt gzip file', async () => {
    const dir = await tempDir();
    const file = join(dir, 'estat_x.tsv.gz');
    await writeFile(file, gzipSync(OLD_TSV).subarray(0, 30));
    await assert.rejects(parseEurostatFile(file), (e: unknown) => e instanceof MalformedSourceError && /gzip|empty|not a Eurostat/.test(e.message));
  });
});

function ren(geo: string, values: Array<[string, number | null, string | null]>): EurostatWriteRow[] {
  return values.map(([time_period, obs_value, obs_flag]) => ({ dims: { freq: 'A', nrg_bal: 'REN', unit: 'PC', geo }, time_period, obs_value, obs_flag }));
}

describe('Eurostat snapshot', () => {
  test('ingest, no-op re-ingest, a new vintage replaces only its dataset, all-or-nothing', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await writeEurostatTsv(join(src, 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', [...ren('AT', [['2022', 33.8, null], ['2023', 40.8, 'p']]), ...ren('BG', [['2022', 19.1, null], ['2023', null, 'c']])]);
    await writeEurostatSdmxCsv(join(src, 'hicp.csv'), 'prc_hicp_manr', [
      { dims: { freq: 'M', unit: 'RCH_A', coicop: 'CP00', geo: 'BG' }, time_period: '2025-01', obs_value: 3.8, obs_flag: null },
    ], { version: '2.0' });
    const first = await ingestEurostatFiles({ dataDir, path: src, now: NOW });
    assert.deepEqual(first.datasets, ['nrg_ind_ren', 'prc_hicp_manr']);
    assert.deepEqual(first.imported.map((r) => [r.dataset, r.source, r.sourceFile, r.rowCount, r.importDate]), [
      ['eurostat/nrg_ind_ren', 'estat-tsv', 'estat_nrg_ind_ren.tsv', 4, '2026-01-02T03:04:05.000Z'],
      ['eurostat/prc_hicp_manr', 'sdmx-csv-2.0', 'hicp.csv', 1, '2026-01-02T03:04:05.000Z'],
    ]);
    const [obs, datasets] = await query((db) => loadEurostat(db, dataDir),
      `SELECT dataset_id, series_key, geo, dims['nrg_bal'] AS nrg_bal, time_period, CAST(period_start AS VARCHAR) AS start, obs_value, obs_flag
         FROM estat_observations ORDER BY dataset_id, series_key, time_period`,
      `SELECT dataset_id, format, dimension_keys, source_files, observation_count, series_count, first_period, last_period FROM estat_datasets ORDER BY dataset_id`);
    assert.deepEqual(obs, [
      { dataset_id: 'nrg_ind_ren', series_key: 'A.REN.PC.AT', geo: 'AT', nrg_bal: 'REN', time_period: '2022', start: '2022-01-01', obs_value: 33.8, obs_flag: null },
      { dataset_id: 'nrg_ind_ren', series_key: 'A.REN.PC.AT', geo: 'AT', nrg_bal: 'REN', time_period: '2023', start: '2023-01-01', obs_value: 40.8, obs_flag: 'p' },
      { dataset_id: 'nrg_ind_ren', series_key: 'A.REN.PC.BG', geo: 'BG', nrg_bal: 'REN', time_period: '2022', start: '2022-01-01', obs_value: 19.1, obs_flag: null },
      { dataset_id: 'nrg_ind_ren', series_key: 'A.REN.PC.BG', geo: 'BG', nrg_bal: 'REN', time_period: '2023', start: '2023-01-01', obs_value: null, obs_flag: 'c' },
      { dataset_id: 'prc_hicp_manr', series_key: 'M.RCH_A.CP00.BG', geo: 'BG', nrg_bal: null, time_period: '2025-01', start: '2025-01-01', obs_value: 3.8, obs_flag: null },
    ]);
    assert.deepEqual(datasets, [
      { dataset_id: 'nrg_ind_ren', format: 'estat-tsv', dimension_keys: ['freq', 'nrg_bal', 'unit', 'geo'], source_files: ['estat_nrg_ind_ren.tsv'], observation_count: 4, series_count: 2, first_period: '2022', last_period: '2023' },
      { dataset_id: 'prc_hicp_manr', format: 'sdmx-csv-2.0', dimension_keys: ['freq', 'unit', 'coicop', 'geo'], source_files: ['hicp.csv'], observation_count: 1, series_count: 1, first_period: '2025-01', last_period: '2025-01' },
    ]);
    assert.deepEqual(await eurostatDatasetsInSnapshot(dataDir), ['nrg_ind_ren', 'prc_hicp_manr']);

    // Same bytes again: nothing happens, not one byte changes.
    const before = await snapshotBytes(dataDir);
    const again = await ingestEurostatFiles({ dataDir, path: src, now: () => new Date('2027-01-01T00:00:00Z') });
    assert.deepEqual([again.imported.length, again.skipped.length], [0, 2]);
    assert.deepEqual(await snapshotBytes(dataDir), before);

    // A malformed file beside a good new vintage: rejected, nothing written.
    const next = await tempDir();
    await writeEurostatTsv(join(next, 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', ren('AT', [['2024', 41.1, 'p']]));
    await writeFile(join(next, 'estat_other.tsv'), 'freq,geo\\TIME_PERIOD\t2022 \nA,AT\tbad \n');
    await assert.rejects(ingestEurostatFiles({ dataDir, path: next, now: NOW }), (e: unknown) => {
      assert.ok(e instanceof IngestRejectedError);
      assert.deepEqual(e.problems.map((p) => [p.file, p.row]), [['estat_other.tsv', 2]]);
      return true;
    });
    assert.deepEqual(await snapshotBytes(dataDir), before);

    // The good vintage alone replaces nrg_ind_ren entirely and keeps prc_hicp_manr.
    await ingestEurostatFiles({ dataDir, path: join(next, 'estat_nrg_ind_ren.tsv'), now: NOW });
    const [after, ledger] = await query(async (db) => {
      await loadEurostat(db, dataDir);
      await loadImportLedger(db, dataDir);
    }, `SELECT dataset_id, geo, time_period, obs_value FROM estat_observations ORDER BY ALL`, `SELECT dataset, source_file FROM imports ORDER BY ALL`);
    assert.deepEqual(after, [
      { dataset_id: 'nrg_ind_ren', geo: 'AT', time_period: '2024', obs_value: 41.1 },
      { dataset_id: 'prc_hicp_manr', geo: 'BG', time_period: '2025-01', obs_value: 3.8 },
    ]);
    assert.equal(ledger.length, 3, 'import records kept');
  });

  test('two files of one dataset in a run are combined; an observation in both rejects the run', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await mkdir(join(src, 'a'));
    await writeEurostatTsv(join(src, 'a', 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', ren('AT', [['2022', 1, null]]));
    await writeEurostatSdmxCsv(join(src, 'a', 'nrg_ind_ren.csv.gz'), 'nrg_ind_ren', ren('BG', [['2022', 2, null]]), { lastUpdate: '2025-03-04T05:06:07' });
    const result = await ingestEurostatFiles({ dataDir, path: join(src, 'a'), now: NOW });
    assert.deepEqual(result.datasets, ['nrg_ind_ren']);
    const [rows] = await query((db) => loadEurostat(db, dataDir),
      `SELECT format, source_files, observation_count, CAST(last_update AS VARCHAR) AS last_update FROM estat_datasets`);
    assert.deepEqual(rows, [{ format: 'estat-tsv+sdmx-csv-1.0', source_files: ['estat_nrg_ind_ren.tsv', 'nrg_ind_ren.csv.gz'], observation_count: 2, last_update: '2025-03-04 05:06:07' }]);

    await mkdir(join(src, 'b'));
    await writeEurostatTsv(join(src, 'b', 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', ren('AT', [['2023', 1, null]]));
    await writeEurostatTsv(join(src, 'b', 'nrg_ind_ren.tsv'), 'nrg_ind_ren', ren('AT', [['2023', 1.5, null]]));
    const before = await snapshotBytes(dataDir);
    await assert.rejects(ingestEurostatFiles({ dataDir, path: join(src, 'b'), now: NOW }), (e: unknown) => {
      assert.ok(e instanceof IngestRejectedError);
      assert.match(e.message, /A\.REN\.PC\.AT 2023 given again in nrg_ind_ren\.tsv line 2/);
      return true;
    });
    assert.deepEqual(await snapshotBytes(dataDir), before);
  });

  test('an empty snapshot loads empty tables, twice on one database', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ connections: 1 });
    try {
      await loadEurostat(db, dataDir);
      await loadEurostat(db, dataDir);
      assert.deepEqual(await db.all('SELECT count(*)::INTEGER AS n FROM estat_observations'), [{ n: 0 }]);
    } finally {
      await db.close();
    }
  });
});

describe('Eurostat writers and command', () => {
  test('TSV, TSV.gz, SDMX-CSV 1.0 and 2.0 read back to the rows written', async () => {
    const dir = await tempDir();
    const rows: EurostatWriteRow[] = [
      { dims: { freq: 'Q', unit: 'PC', geo: 'EL' }, time_period: '2023Q2', obs_value: 0.1 + 0.2, obs_flag: null },
      { dims: { freq: 'Q', unit: 'PC', geo: 'EL' }, time_period: '2023-Q1', obs_value: -1e-7, obs_flag: 'e' },
      { dims: { freq: 'Q', unit: 'PC', geo: 'BG' }, time_period: '2023-Q2', obs_value: null, obs_flag: 'c' },
      { dims: { freq: 'Q', unit: 'PC', geo: 'BG' }, time_period: '2023-Q1', obs_value: 12345678.9, obs_flag: null },
    ];
    const expected = [
      ['Q.PC.BG', '2023-Q1', 12345678.9, null],
      ['Q.PC.BG', '2023-Q2', null, 'c'],
      ['Q.PC.EL', '2023-Q1', -1e-7, 'e'],
      ['Q.PC.EL', '2023-Q2', 0.1 + 0.2, null],
    ];
    const sorted = (obs: EurostatObservation[]) =>
      obs.map((o) => [o.series_key, o.time_period, o.obs_value, o.obs_flag]).sort((a, b) => (String(a[0]) + a[1] < String(b[0]) + b[1] ? -1 : 1));
    await writeEurostatTsv(join(dir, 'estat_teiqq.tsv'), 'teiqq', rows);
    await writeEurostatTsv(join(dir, 'estat_teiqq.tsv.gz'), 'teiqq', rows);
    await writeEurostatSdmxCsv(join(dir, 'v1.csv'), 'teiqq', rows, { version: '1.0' });
    await writeEurostatSdmxCsv(join(dir, 'v2.csv'), 'teiqq', rows, { version: '2.0' });
    for (const name of ['estat_teiqq.tsv', 'estat_teiqq.tsv.gz', 'v1.csv', 'v2.csv']) {
      const parsed = await parseEurostatFile(join(dir, name));
      assert.equal(parsed.datasetId, 'teiqq', name);
      assert.deepEqual(sorted(parsed.observations), expected, name);
    }
    assert.match(await readFile(join(dir, 'estat_teiqq.tsv'), 'utf8'), /^freq,unit,geo\\TIME_PERIOD\t2023-Q1 \t2023-Q2 \nQ,PC,EL\t-1e-7 e\t0.30000000000000004 \n/);
    await assert.rejects(writeEurostatTsv(join(dir, 'hicp.tsv'), 'prc_hicp_manr', rows), /estat_prc_hicp_manr\.tsv/);
  });

  test('the ingest command: --dataset, a bad --dataset, an empty folder', async () => {
    const src = await tempDir();
    const dataDir = await tempDir();
    await writeFile(join(src, 'download.tsv'), OLD_TSV);
    const lines: string[] = [];
    const outcome = await eurostatIngestCommand.run({ path: src, dataDir, options: { dataset: 'teiqq' }, log: (l) => lines.push(l) });
    assert.deepEqual(outcome, { imported: 1, rows: 4, skipped: 0 });
    assert.deepEqual(await eurostatDatasetsInSnapshot(dataDir), ['teiqq']);
    await assert.rejects(eurostatIngestCommand.run({ path: src, dataDir, options: { dataset: 'bad code!' }, log: () => {} }), /--dataset/);
    const empty = await tempDir();
    await assert.rejects(eurostatIngestCommand.run({ path: empty, dataDir, options: {}, log: () => {} }), /no \.tsv/);
  });
});
