// FRED licence statuses: recorded at ingest (default PENDING for a new series, kept on re-ingest unless
// --license is given), changed without re-ingesting (setFredLicense / npm run license), each with a time
// in the import records; and the gate end to end through the paid path with the local facilitator:
// PENDING and DENIED answer 451 before any challenge, nothing is verified or settled, nothing charged.
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Database } from '../../engine/database.ts';
import { observeStatements } from '../../bench/statementObserver.ts';
import { loadImportLedger } from '../../ingest/commit.ts';
import { startDevChain, type DevChain } from '../../devchain/chain.ts';
import { startLocalFacilitator, type LocalFacilitator } from '../../devchain/facilitator.ts';
import { ingestFredFiles, setFredLicense, UnknownSeriesError } from '../../domains/macro/ingest/snapshot.ts';
import { licenseStatuses, macroRoutes } from '../../domains/macro/queries/routes.ts';
import { readMacroData } from '../../domains/macro/queries/tables.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { runLicenseCli } from '../../domains/macro/ingest/licenseCli.ts';
import { buildServing } from '../../domains/index.ts';
import { devPaymentEnv, payingFetch, startPaidApp, type PaidApp } from '../helpers/payments.ts';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { writeFixtureFiles } from './fixture.ts';
import { openMacroDb, tempRoot } from './helpers.ts';

let root: string;
let cleanup: () => Promise<void>;
let fredDir: string;
before(async () => {
  const temp = await tempRoot('macro-license-');
  root = temp.root;
  cleanup = temp.cleanup;
  fredDir = (await writeFixtureFiles(path.join(root, 'files'))).fred;
});
after(() => cleanup?.());

const fredFiles = async () => (await readdir(fredDir)).sort().map((n) => path.join(fredDir, n));

async function statuses(dataDir: string): Promise<Record<string, string>> {
  const db = await openMacroDb(dataDir);
  try {
    return Object.fromEntries([...(await readMacroData(db)).licenses].map(([id, l]) => [id, l.status]));
  } finally {
    await db.close();
  }
}

async function licenseRecords(dataDir: string) {
  const db = await Database.open({ connections: 1 });
  try {
    return (await loadImportLedger(db, dataDir)).filter((r) => r.dataset === 'macro_fred_licenses').map((r) => [r.sourceFile, r.importDate]);
  } finally {
    await db.close();
  }
}

/**
 * bin/license.ts's command in this process (with its serving build): the exit code and what it wrote
 * to stderr, caught for the run. Only for setting a status (`list` writes stdout, which the test
 * runner reports on and is left alone).
 */
async function licenseInProcess(args: string[]): Promise<CliResult> {
  let stderr = '';
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true)) as typeof process.stderr.write;
  try {
    const code = await runLicenseCli(args, buildServing);
    return { code, stdout: '', stderr };
  } finally {
    process.stderr.write = write;
  }
}

describe('licence statuses', () => {
  it('default PENDING at ingest, kept on re-ingest, set by --license and by setFredLicense, each recorded with its time', async () => {
    const dataDir = path.join(root, 'statuses');
    await ingestFredFiles(await fredFiles(), { dataDir, now: () => new Date('2026-01-01T10:00:00Z') });
    assert.deepEqual(await statuses(dataDir), { CPIAUCSL: 'PENDING', DGS10: 'PENDING', DGS2: 'PENDING', FEDFUNDS: 'PENDING', UNRATE: 'PENDING', VIXCLS: 'PENDING' });

    const { previous, record } = await setFredLicense('VIXCLS', 'APPROVED', { dataDir, now: () => new Date('2026-01-02T11:00:00Z') });
    assert.equal(previous, 'PENDING');
    assert.equal(record.importDate, '2026-01-02T11:00:00.000Z');
    assert.equal((await statuses(dataDir)).VIXCLS, 'APPROVED');

    // A newer VIXCLS file without --license keeps APPROVED; one with --license DENIED sets it.
    const newer = path.join(root, 'VIXCLS.csv');
    await writeFile(newer, 'observation_date,VIXCLS\n2025-12-31,21\n');
    await ingestFredFiles([newer], { dataDir, now: () => new Date('2026-01-03T12:00:00Z') });
    assert.equal((await statuses(dataDir)).VIXCLS, 'APPROVED');
    await writeFile(newer, 'observation_date,VIXCLS\n2025-12-31,22\n');
    await ingestFredFiles([newer], { dataDir, license: 'DENIED', now: () => new Date('2026-01-04T12:00:00Z') });
    assert.equal((await statuses(dataDir)).VIXCLS, 'DENIED');

    const records = await licenseRecords(dataDir);
    assert.deepEqual(records.filter(([file]) => file.startsWith('VIXCLS')), [
      ['VIXCLS=PENDING', '2026-01-01T10:00:00.000Z'], ['VIXCLS=APPROVED', '2026-01-02T11:00:00.000Z'], ['VIXCLS=DENIED', '2026-01-04T12:00:00.000Z'],
    ]);
    assert.equal(records.length, 8); // 6 at the first ingest, the command, the --license ingest
    await assert.rejects(setFredLicense('NOPE', 'APPROVED', { dataDir }), UnknownSeriesError);
  });

  it('npm run license -- <series> <status> (the script), exit 2 on a bad status or an unknown series', async () => {
    const dataDir = path.join(root, 'cli');
    await ingestFredFiles(await fredFiles(), { dataDir });
    // The bad status as the child process npm starts (its exit code is the process's); the others in this process.
    const ok = await licenseInProcess(['dgs10', 'approved', '--data-dir', dataDir]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /DGS10 PENDING -> APPROVED at \d{4}-/);
    assert.equal((await statuses(dataDir)).DGS10, 'APPROVED');
    const bad = await runCli('bin/license.ts', ['DGS10', 'MAYBE', '--data-dir', dataDir]);
    assert.equal(bad.code, 2);
    const unknown = await licenseInProcess(['XYZ', 'APPROVED', '--data-dir', dataDir]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /not in the snapshot/);
  });
});

describe('the licence gate on the paid path (local facilitator)', () => {
  let chain: DevChain;
  let facilitator: LocalFacilitator;
  let dataDir: string;
  let db: Database;
  let app: PaidApp;
  before(async () => {
    dataDir = path.join(root, 'paid');
    await ingestFredFiles(await fredFiles(), { dataDir }); // PENDING
    await setFredLicense('DGS10', 'APPROVED', { dataDir });
    await setFredLicense('DGS2', 'DENIED', { dataDir });
    chain = await startDevChain();
    facilitator = await startLocalFacilitator({ chain });
    db = await openMacroDb(dataDir);
    app = await startPaidApp({ db, routes: macroRoutes, env: devPaymentEnv(chain, facilitator.url) });
  });
  after(async () => {
    await app?.close();
    await facilitator?.stop();
    await db?.close();
  });

  const verifyOrSettle = () => facilitator.requests.filter((r) => r.path === '/verify' || r.path === '/settle').length;

  it('PENDING (VIXCLS) and DENIED (DGS2) answer 451 naming the series, with no challenge, and nothing is verified, settled or charged', async () => {
    const before = { payer: await chain.balanceOf(chain.addresses.payer), calls: verifyOrSettle() };
    const pay = payingFetch(DEV_KEYS.payer);
    for (const [url, series, status] of [
      ['/api/analytics/market/volatility-regime', 'VIXCLS', 'PENDING'],
      ['/api/analytics/us/yield-curve', 'DGS2', 'DENIED'],
    ] as const) {
      for (const response of [await app.request(url), await pay(app.base + url)]) {
        assert.equal(response.status, 451, url);
        assert.equal(response.headers.get('payment-required'), null);
        const body = await response.json();
        assert.equal(body.error.code, 'license_not_approved');
        assert.match(body.error.message, new RegExp(`${series} \\(license_status ${status}\\)`));
        assert.doesNotMatch(body.error.message, /DGS10 \(/); // DGS10 is APPROVED
      }
    }
    // A payment header sent anyway is never verified.
    const forced = await app.request('/api/analytics/us/yield-curve', { headers: { 'PAYMENT-SIGNATURE': Buffer.from('{}').toString('base64') } });
    assert.equal(forced.status, 451);
    assert.equal(verifyOrSettle(), before.calls);
    assert.equal(await chain.balanceOf(chain.addresses.payer), before.payer);
  });

  it('the gate reads the statuses held for the database: a refused request issues no statement', async () => {
    assert.equal((await app.request('/api/analytics/us/yield-curve')).status, 451); // the statuses are read once
    const statements: string[] = [];
    const stop = observeStatements((event) => statements.push(event.sql));
    try {
      assert.equal((await app.request('/api/analytics/us/yield-curve')).status, 451);
      assert.equal((await app.request('/api/analytics/market/volatility-regime')).status, 451);
    } finally {
      stop();
    }
    assert.deepEqual(statements, []);
    // Only the series asked for, and a series never ingested has no status.
    assert.deepEqual(Object.fromEntries(await licenseStatuses(db, ['DGS2', 'DGS10', 'NOPE'])), { DGS2: 'DENIED', DGS10: 'APPROVED' });
  });

  it('validation still comes first: a bad lookback_days is a 400 on a gated route', async () => {
    const response = await app.request('/api/analytics/market/volatility-regime?lookback_days=1');
    assert.equal(response.status, 400);
  });

  it('once APPROVED (no re-ingest), the route challenges (402) and a payment buys the answer', async () => {
    await setFredLicense('VIXCLS', 'APPROVED', { dataDir });
    const approvedDb = await openMacroDb(dataDir);
    const approvedApp = await startPaidApp({ db: approvedDb, routes: macroRoutes, env: devPaymentEnv(chain, facilitator.url) });
    try {
      const unpaid = await approvedApp.request('/api/analytics/market/volatility-regime?lookback_days=5');
      assert.equal(unpaid.status, 402);
      const payerBefore = await chain.balanceOf(chain.addresses.payer);
      const paid = await payingFetch(DEV_KEYS.payer)(approvedApp.base + '/api/analytics/market/volatility-regime?lookback_days=5');
      assert.equal(paid.status, 200);
      assert.equal((await paid.json()).regime, 'elevated');
      assert.equal(await chain.balanceOf(chain.addresses.payer), payerBefore - 10_000n);
    } finally {
      await approvedApp.close();
      await approvedDb.close();
    }
  });
});
