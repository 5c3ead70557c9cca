import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { parseMofXlsx } from '../../domains/sebra/ingest/xlsx.ts';
import { generateSebraSample, sampleDay, sampleDayTotal, sampleFileName, workingDays } from '../../domains/sebra/ingest/sample.ts';
import { scriptArgs } from '../helpers/cli.ts';
import { projectRoot, tempDir } from './fixtures.ts';

const run = promisify(execFile);

async function hashes(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    result[name] = createHash('sha256').update(await readFile(join(dir, name))).digest('hex');
  }
  return result;
}

test('working days skip weekends and fixed public holidays', () => {
  assert.deepEqual(workingDays('2024-12-20', '2025-01-03'), ['2024-12-20', '2024-12-23', '2024-12-27', '2024-12-30', '2024-12-31', '2025-01-02', '2025-01-03']);
  assert.deepEqual(workingDays('2025-03-01', '2025-03-04'), ['2025-03-04']);
  assert.equal(sampleFileName('2026-01-02'), 'SEBRA-02012026.xlsx');
});

test('one month generated twice is byte-identical and parses back to the generated rows', async () => {
  const first = await tempDir();
  const second = await tempDir();
  const files = await generateSebraSample(first, { from: '2025-12-01', to: '2025-12-31' });
  await generateSebraSample(second, { from: '2025-12-01', to: '2025-12-31' });
  assert.equal(files.length, 20);
  assert.deepEqual(await hashes(first), await hashes(second));

  for (const file of files) {
    const report = await parseMofXlsx(file);
    const day = sampleDay(report.paymentDate);
    assert.equal(basename(file), sampleFileName(report.paymentDate));
    assert.equal(report.currency, 'BGN');
    assert.equal(report.status, 'HAS_PAYMENTS');
    assert.equal(report.rows.length, day.sections.reduce((sum, section) => sum + section.lines.length, 0));
    const totalCents = report.rows.reduce((sum, row) => sum + BigInt(row.amount.replace('.', '')), 0n);
    assert.equal(`${totalCents / 100n}.${String(totalCents % 100n).padStart(2, '0')}`, sampleDayTotal(day));
    assert.ok(report.rows.every((row) => row.paymentCount !== null && row.paymentCount >= 1 && row.paymentCount <= 2000));
  }
  const firstDay = await parseMofXlsx(files[0]);
  // Wrapped names come back whole; the municipal lines have no code.
  assert.ok(firstDay.rows.some((row) => row.programme === 'Министерство на регионалното развитие и благоустройството' && row.programmeCode === '021*******'));
  const municipal = firstDay.rows.filter((row) => row.programme === 'Субсидии за ОБЩИНИ');
  assert.deepEqual(municipal.map((row) => [row.accountCode, row.accountDescription]).slice(0, 2), [
    ['', 'Обща субсидия за делегирани от държавата дейности'],
    ['', 'Трансфери за местни дейности'],
  ]);
});

test('EUR from 2026 and the planted days without payments', async () => {
  const dir = await tempDir();
  await generateSebraSample(dir, { from: '2025-04-30', to: '2025-05-02' });
  const zero = await parseMofXlsx(join(dir, 'SEBRA-02052025.xlsx'));
  assert.equal(zero.status, 'NO_PAYMENTS');
  assert.deepEqual(zero.rows, []);
  const [euroFile] = await generateSebraSample(dir, { from: '2026-01-02', to: '2026-01-02' });
  const euro = await parseMofXlsx(euroFile);
  assert.equal(euro.currency, 'EUR');
  assert.equal(euro.paymentDate, '2026-01-02');
  assert.ok(euro.rows.length > 0);
});

test('a day is the same whatever range generates it, in every time zone', async () => {
  const dirs = [await tempDir(), await tempDir(), await tempDir()];
  const cli = scriptArgs('domains/sebra/ingest/sample-cli.ts');
  const zones = ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'];
  await Promise.all(
    zones.map((zone, i) =>
      run(process.execPath, [...cli, dirs[i], '--from', '2024-02-26', '--to', '2024-03-08'], {
        cwd: projectRoot,
        env: { ...process.env, TZ: zone },
      }),
    ),
  );
  const reference = await hashes(dirs[0]);
  assert.equal(Object.keys(reference).length, 10);
  assert.deepEqual(await hashes(dirs[1]), reference);
  assert.deepEqual(await hashes(dirs[2]), reference);
  const inProcess = await tempDir();
  await generateSebraSample(inProcess, { from: '2024-03-04', to: '2024-03-04' });
  assert.equal((await hashes(inProcess))['SEBRA-04032024.xlsx'], reference['SEBRA-04032024.xlsx']);
});
