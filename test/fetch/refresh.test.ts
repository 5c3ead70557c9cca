// The refresh worker on an injectable clock: each source fires at its croner time in Europe/Berlin
// (expected times worked out by hand below), one fetch at a time; npm run refresh stops cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RefreshWorker } from '../../ingest/fetch/refresh.ts';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

function fakeClock(start: string) {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('refresh worker', () => {
  it('fires each source at its schedule in Europe/Berlin time, earliest first', async () => {
    // Friday 2026-11-20 14:00 UTC = 15:00 in Berlin (CET, UTC+1).
    const clock = fakeClock('2026-11-20T14:00:00Z');
    const fired: string[] = [];
    const worker: RefreshWorker = new RefreshWorker({
      schedules: [{ source: 'eurofxref', pattern: '30 16 * * 1-5' }, { source: 'worldbank', pattern: '0 4 * * 0' }],
      now: clock.now,
      sleep: async (ms) => clock.advance(ms),
      log: () => {},
      fetch: async (source) => {
        fired.push(`${source} ${clock.now().toISOString()}`);
        if (fired.length === 4) void worker.stop();
        return { exitCode: 0 };
      },
    });
    await worker.start();
    assert.deepEqual(fired, [
      'eurofxref 2026-11-20T15:30:00.000Z', // Friday 16:30 CET
      'worldbank 2026-11-22T03:00:00.000Z', // Sunday 04:00 CET (no reference rates on the weekend)
      'eurofxref 2026-11-23T15:30:00.000Z', // Monday
      'eurofxref 2026-11-24T15:30:00.000Z', // Tuesday
    ]);
  });

  it('runs one fetch at a time: a source due during a long fetch runs after it, and an overrun time is skipped', async () => {
    const clock = fakeClock('2026-11-20T14:00:00Z');
    const fired: string[] = [];
    let running = 0;
    const worker: RefreshWorker = new RefreshWorker({
      // ecb due 16:00 CET, eurofxref 16:30 CET, every day; the first ecb fetch takes 26 hours.
      schedules: [{ source: 'ecb', pattern: '0 16 * * *' }, { source: 'eurofxref', pattern: '30 16 * * *' }],
      now: clock.now,
      sleep: async (ms) => clock.advance(ms),
      log: () => {},
      fetch: async (source) => {
        running++;
        assert.equal(running, 1, 'two fetches at once');
        fired.push(`${source} ${clock.now().toISOString()}`);
        if (source === 'ecb' && fired.length === 1) clock.advance(26 * 3600 * 1000);
        running--;
        if (fired.length === 3) void worker.stop();
        return { exitCode: 0 };
      },
    });
    await worker.start();
    assert.deepEqual(fired, [
      'ecb 2026-11-20T15:00:00.000Z',
      'eurofxref 2026-11-21T17:00:00.000Z', // due 2026-11-20T15:30Z, run when the ecb fetch ended
      // ecb's own next time, Saturday 16:00 CET, passed during its 26-hour fetch: skipped, Sunday's comes first.
      'ecb 2026-11-22T15:00:00.000Z',
    ]);
  });

  it('npm run refresh logs JSON lines and stops with exit 0 on SIGTERM', async () => {
    const root = await tempDirUntilExit('refresh-');
    await mkdir(path.join(root, 'config'));
    // Only eurofxref, at a time that will not come during the test.
    const sources: Record<string, unknown> = {};
    for (const name of ['ecb', 'fred', 'eurostat', 'worldbank', 'oecd', 'cardgame', 'agrifood', 'trade', 'ptp']) sources[name] = { enabled: false };
    sources.eurofxref = { schedule: '0 0 1 1 *' };
    await writeFile(path.join(root, 'config', 'sources.json'), JSON.stringify({ sources }));
    const child = spawn(process.execPath, [...scriptArgs('bin/refresh.ts'), '--data-dir', path.join(root, 'parquet')], {
      cwd: projectRoot, env: { ...process.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let signalled = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!signalled && stdout.includes('"refresh_scheduled"')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve)); // close: stdout read to its end
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { event?: string; sources?: string[]; msg: string });
    assert.equal(code, 0, stdout);
    assert.deepEqual(lines.find((l) => l.event === 'refresh_started')?.sources, ['eurofxref']);
    // 0 0 1 1 * in Berlin: New Year's midnight, 23:00 UTC the day before.
    assert.match(lines.find((l) => l.event === 'refresh_scheduled')!.msg, /^refresh: eurofxref next at \d{4}-12-31T23:00:00\.000Z$/);
    assert.equal(lines.at(-1)?.event, "refresh_stopped", stdout);
  });
});
