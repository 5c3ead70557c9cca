// The macro readers: ECB csvdata (by column name, quoted commas in TITLE, dataonly), the reference-rate
// bulk file (csv and zip), FRED (both CSV headers, date,value copies, API JSON), on hand-written
// fixtures and on the real files in ../shared/data/real (skipped when absent).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import JSZip from 'jszip';
import { MalformedSourceError } from '../../ingest/errors.ts';
import { parseEcbCsv, parseEurofxref, parseFredFile } from '../../domains/macro/ingest/parse.ts';
import { stepChanges, stepAt } from '../../domains/macro/queries/analytics.ts';

const REAL = path.resolve(import.meta.dirname, '../../../shared/data/real');

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'macro-readers-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fixture(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('ECB csvdata reader', () => {
  it('reads KEY, TIME_PERIOD and OBS_VALUE by name whatever the other columns, TITLE with quoted commas', async () => {
    const file = await fixture('kr.csv', [
      'KEY,FREQ,REF_AREA,CURRENCY,PROVIDER_FM,INSTRUMENT_FM,PROVIDER_FM_ID,DATA_TYPE_FM,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,TITLE,TITLE_COMPL,UNIT,UNIT_MULT',
      'FM.B.U2.EUR.4F.KR.DFR.LEV,B,U2,EUR,4F,KR,DFR,LEV,2024-06-12,3.75,A,F,"Deposit facility - date of changes (raw data), Level","Euro area (changing composition), Key interest rate, ECB Deposit facility - date of changes (raw data) - Level, Euro, provided by ECB",PCPA,0',
      'FM.B.U2.EUR.4F.KR.DFR.LEV,B,U2,EUR,4F,KR,DFR,LEV,2024-09-18,3.5,A,F,"Deposit facility, Level","x, y",PCPA,0',
      '',
    ].join('\n'));
    const parsed = await parseEcbCsv(file);
    assert.deepEqual(parsed.seriesKeys, ['FM.B.U2.EUR.4F.KR.DFR.LEV']);
    assert.deepEqual(parsed.observations.map((o) => [o.date, o.value]), [['2024-06-12', 3.75], ['2024-09-18', 3.5]]);
  });

  it('reads the short detail=dataonly layout of another flow (€STR), missing OBS_VALUE as null', async () => {
    const file = await fixture('estr.csv', 'KEY,FREQ,BENCHMARK_ITEM,DATA_TYPE_EST,TIME_PERIOD,OBS_VALUE\nEST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,2026-07-15,2.184\nEST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,2026-07-16,\n');
    const parsed = await parseEcbCsv(file);
    assert.deepEqual(parsed.observations.map((o) => [o.seriesKey, o.date, o.value]), [
      ['EST.B.EU000A2X2A25.WT', '2026-07-15', 2.184], ['EST.B.EU000A2X2A25.WT', '2026-07-16', null],
    ]);
  });

  it('rejects a file without the named columns, a bad date, a non-number, naming the row', async () => {
    await assert.rejects(parseEcbCsv(await fixture('no-key.csv', 'FREQ,TIME_PERIOD,OBS_VALUE\nB,2024-01-01,1\n')), (e: MalformedSourceError) => /KEY/.test(e.message) && e.row === 1);
    await assert.rejects(parseEcbCsv(await fixture('bad-date.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nA.B,2024-02-30,1\n')), (e: MalformedSourceError) => e.row === 2 && /TIME_PERIOD/.test(e.message));
    await assert.rejects(parseEcbCsv(await fixture('bad-value.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nA.B,2024-02-01,abc\n')), (e: MalformedSourceError) => e.row === 2 && /OBS_VALUE/.test(e.message));
    await assert.rejects(parseEcbCsv(await fixture('dup.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nA.B,2024-02-01,1\nA.B,2024-02-01,2\n')), (e: MalformedSourceError) => e.row === 3);
  });
});

describe('eurofxref reader', () => {
  const text = 'Date,USD,JPY,CYP,\n2024-01-19,1.0887,161.17,N/A,\n1999-01-04,1.1789,133.73,0.58231,\n';
  it('reads the wide layout newest first with a trailing comma; N/A cells are not stored', async () => {
    const parsed = await parseEurofxref(await fixture('eurofxref-hist.csv', text));
    assert.deepEqual(parsed.currencies, ['USD', 'JPY', 'CYP']);
    assert.equal(parsed.dates, 2);
    assert.deepEqual(parsed.rates, [
      { date: '2024-01-19', currency: 'USD', rate: 1.0887 }, { date: '2024-01-19', currency: 'JPY', rate: 161.17 },
      { date: '1999-01-04', currency: 'USD', rate: 1.1789 }, { date: '1999-01-04', currency: 'JPY', rate: 133.73 },
      { date: '1999-01-04', currency: 'CYP', rate: 0.58231 },
    ]);
  });
  it('reads the same file inside the zip it comes in', async () => {
    const zip = new JSZip();
    zip.file('eurofxref-hist.csv', text);
    const file = path.join(dir, 'eurofxref-hist.zip');
    await writeFile(file, await zip.generateAsync({ type: 'nodebuffer' }));
    assert.equal((await parseEurofxref(file)).rates.length, 5);
  });
  it('rejects a zero rate and a bad header', async () => {
    await assert.rejects(parseEurofxref(await fixture('zero.csv', 'Date,USD,\n2024-01-19,0,\n')), (e: MalformedSourceError) => e.row === 2);
    await assert.rejects(parseEurofxref(await fixture('hdr.csv', 'Day,USD,\n')), MalformedSourceError);
  });
});

describe('FRED reader', () => {
  it('reads observation_date,<ID> with "." and empty as missing (never 0)', async () => {
    const parsed = await parseFredFile(await fixture('fredgraph.csv', 'observation_date,DGS10,DGS2\n2025-01-01,.,\n2025-01-02,4.57,4.25\n'));
    assert.deepEqual(parsed.seriesIds, ['DGS10', 'DGS2']);
    assert.deepEqual(parsed.observations.map((o) => [o.seriesId, o.date, o.value]), [
      ['DGS10', '2025-01-01', null], ['DGS2', '2025-01-01', null], ['DGS10', '2025-01-02', 4.57], ['DGS2', '2025-01-02', 4.25],
    ]);
  });
  it('reads the older DATE,<ID> header', async () => {
    const parsed = await parseFredFile(await fixture('old.csv', 'DATE,UNRATE\n2025-09-01,4.4\n2025-10-01,.\n'));
    assert.deepEqual(parsed.observations.map((o) => o.value), [4.4, null]);
  });
  it('reads date,value copies with the series id from the file name or --series', async () => {
    const file = await fixture('VIXCLS.csv', 'date,value\n2025-01-02,17.93\n2025-01-03,\n');
    assert.deepEqual((await parseFredFile(file)).seriesIds, ['VIXCLS']);
    assert.deepEqual((await parseFredFile(file, { series: 'vix2' })).seriesIds, ['VIX2']);
  });
  it('reads the API JSON observations[].{date,value}', async () => {
    const file = await fixture('FEDFUNDS.json', JSON.stringify({ units: 'lin', observations: [
      { realtime_start: '2025-12-01', date: '2025-10-01', value: '4.09' }, { date: '2025-11-01', value: '.' },
    ] }));
    assert.deepEqual((await parseFredFile(file)).observations.map((o) => [o.seriesId, o.date, o.value]), [['FEDFUNDS', '2025-10-01', 4.09], ['FEDFUNDS', '2025-11-01', null]]);
  });
  it('rejects a non-number, a bad date and an unknown header, naming the row', async () => {
    await assert.rejects(parseFredFile(await fixture('bad.csv', 'DATE,DGS2\n2025-01-01,n/a\n')), (e: MalformedSourceError) => e.row === 2);
    await assert.rejects(parseFredFile(await fixture('bad2.csv', 'DATE,DGS2\n01/01/2025,1\n')), (e: MalformedSourceError) => e.row === 2);
    await assert.rejects(parseFredFile(await fixture('bad3.csv', 'when,DGS2\n')), MalformedSourceError);
    await assert.rejects(parseFredFile(await fixture('BAD4.json', '{"observations":[{"date":"2025-01-01","value":"x"}]}')), MalformedSourceError);
  });
});

// ---------------------------------------------------------------------------------------------
// Real files

const fredDir = path.join(REAL, 'fred');
describe('real FRED copies', { skip: existsSync(fredDir) ? false : `no ${fredDir}` }, () => {
  it('DGS10 - DGS2 equals the published T10Y2Y on every common date, except FRED\'s own 0.01 rounding', async () => {
    const load = async (id: string) => new Map((await parseFredFile(path.join(fredDir, `${id}.csv`))).observations.filter((o) => o.value !== null).map((o) => [o.date, o.value!]));
    const [d10, d2, spread] = await Promise.all([load('DGS10'), load('DGS2'), load('T10Y2Y')]);
    // Two 1990-91 dates of this vintage differ by 0.02 (the copies mix FRED vintages; each checked by
    // hand: 8.27 - 7.55 = 0.72 vs 0.74, 8.03 - 7.10 = 0.93 vs 0.95). Any other difference fails.
    const KNOWN_VINTAGE_GAPS = new Set(['1990-11-21', '1991-01-29']);
    let common = 0;
    let offByCent = 0;
    for (const [date, published] of spread) {
      const a = d10.get(date);
      const b = d2.get(date);
      if (a === undefined || b === undefined) continue;
      common++;
      const cents = Math.round(a * 100) - Math.round(b * 100); // inputs have 2 decimals: exact in cents
      const diff = Math.abs(cents - Math.round(published * 100));
      if (KNOWN_VINTAGE_GAPS.has(date)) continue;
      assert.ok(diff <= 1, `${date}: ${a} - ${b} vs ${published}`);
      if (diff === 1) offByCent++;
    }
    assert.ok(common > 11000, `${common} common dates`);
    assert.ok(offByCent <= 5, `${offByCent} of ${common} differ by 0.01`);
  });
  it('CPIAUCSL and UNRATE have no value for 2025-10 (the BLS shutdown), held as missing', async () => {
    for (const id of ['CPIAUCSL', 'UNRATE']) {
      const o = (await parseFredFile(path.join(fredDir, `${id}.csv`))).observations.find((x) => x.date === '2025-10-01');
      assert.equal(o?.value, null, id);
    }
  });
});

const fxFile = path.join(REAL, 'ecb_eurofxref', 'eurofxref-hist.csv');
const viaFred = path.join(REAL, 'ecb_via_fred');
describe('real eurofxref-hist.csv', { skip: existsSync(fxFile) ? false : `no ${fxFile}` }, () => {
  it('reads the real layout: 41 currencies, newest first, N/A legacy cells', async () => {
    const parsed = await parseEurofxref(fxFile);
    assert.equal(parsed.currencies.length, 41);
    assert.equal(parsed.currencies[0], 'USD');
    const usd = parsed.rates.filter((r) => r.currency === 'USD');
    assert.deepEqual(usd[0], { date: '2024-01-19', currency: 'USD', rate: 1.0887 });
    assert.deepEqual(usd[usd.length - 1], { date: '1999-01-04', currency: 'USD', rate: 1.1789 });
    assert.ok(parsed.rates.some((r) => r.date === '1999-01-04' && r.currency === 'CYP' && r.rate === 0.58231));
    assert.ok(!parsed.rates.some((r) => r.date === '2024-01-19' && r.currency === 'CYP'));
  });
  it('agrees with the second EUR/USD source (ecb_via_fred/ECB_EURUSD.csv) on every common date', { skip: existsSync(viaFred) ? false : `no ${viaFred}` }, async () => {
    const usd = new Map((await parseEurofxref(fxFile)).rates.filter((r) => r.currency === 'USD').map((r) => [r.date, r.rate]));
    const lines = readFileSync(path.join(viaFred, 'ECB_EURUSD.csv'), 'utf8').trim().split('\n').slice(1);
    let common = 0;
    for (const line of lines) {
      const [date, value] = line.split(',');
      if (!usd.has(date) || value === '') continue;
      common++;
      assert.equal(usd.get(date), Number(value), date);
    }
    assert.ok(common > 6000, `${common} common dates`);
  });
});

describe('real ECB deposit facility rate (FRED ECBDFR, daily forward-filled)', { skip: existsSync(viaFred) ? false : `no ${viaFred}` }, () => {
  it('compressed to a step function, gives the ECB decision (effective) dates and levels', async () => {
    const parsed = await parseFredFile(path.join(viaFred, 'ECBDFR.csv.orig'));
    assert.deepEqual(parsed.seriesIds, ['ECBDFR']);
    const points = parsed.observations.filter((o) => o.value !== null).map((o) => ({ date: o.date, value: o.value! }));
    const changes = stepChanges(points).filter((c) => c.date >= '2014-01-01');
    // Effective dates of the ECB's deposit-rate decisions, 2014-2025 (ECB press releases).
    assert.deepEqual(changes.map((c) => [c.date, c.value]), [
      ['2014-06-11', -0.1], ['2014-09-10', -0.2], ['2015-12-09', -0.3], ['2016-03-16', -0.4], ['2019-09-18', -0.5],
      ['2022-07-27', 0], ['2022-09-14', 0.75], ['2022-11-02', 1.5], ['2022-12-21', 2], ['2023-02-08', 2.5],
      ['2023-03-22', 3], ['2023-05-10', 3.25], ['2023-06-21', 3.5], ['2023-08-02', 3.75], ['2023-09-20', 4],
      ['2024-06-12', 3.75], ['2024-09-18', 3.5], ['2024-10-23', 3.25], ['2024-12-18', 3], ['2025-02-05', 2.75],
      ['2025-03-12', 2.5], ['2025-04-23', 2.25], ['2025-06-11', 2],
    ]);
    // Forward fill from the decision dates alone reproduces every daily value.
    const decisions = stepChanges(points);
    for (const p of points) assert.equal(stepAt(decisions, p.date)?.value, p.value, p.date);
  });
});
