// Hot snapshot reload (issue 17): the running server (startServer, as npm start runs it) watches
// DATA_DIR/CURRENT; an ingest published during a bounded loopback load (a few seconds of fetch loops)
// is swapped in with 0 errors, every answer byte-identical to one generation's answer, and every
// request started after the swap answered from the new one (the answer cache is emptied and keyed by
// generation). /healthz names the generation. A generation that fails to load leaves the old one
// serving, with the reason logged.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { cp, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { generationDir, readCurrentId } from '../../engine/generation.ts';
import { readConfig } from '../../http/config.ts';
import { silentLogger } from '../../http/log.ts';
import { startServer } from '../../http/server.ts';
import { answers, ingest, PTP_URLS, ptpBatches, tempDir } from './helpers.ts';

const LOAD_MS = 5000;
const WORKERS = 6;

test('a new generation is swapped in under load: 0 errors, each answer from exactly one generation, none stale after the swap', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-reload-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  const g1 = readCurrentId(dataDir)!;
  const expectedOld = await answers(dataDir);
  // The new generation's answers, from a clean copy built the same way.
  const other = join(await tempDir('snapshot-reload-'), 'parquet');
  await ingest(['ptp', first, '--data-dir', other]);
  await ingest(['ptp', second, '--data-dir', other]);
  const expectedNew = await answers(other);
  for (const url of PTP_URLS.slice(1, 2)) assert.notEqual(expectedOld.get(url), expectedNew.get(url), 'the two generations answer differently');

  const logs: string[] = [];
  const { server, snapshots, reloader } = await startServer(readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }), {
    log: (message, error) => logs.push(error === undefined ? message : `${message}: ${String(error)}`),
    logger: silentLogger(), // no request lines on the test's output
    reloadPollMs: 100,
  });
  let swappedAt = Infinity;
  snapshots.onSwap(() => (swappedAt = performance.now()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.equal((await (await fetch(`${base}/healthz`)).json()).generation, g1);
    const problems: string[] = [];
    let total = 0;
    const seen = { old: 0, new: 0 };
    const stopAt = performance.now() + LOAD_MS;
    const worker = async (offset: number) => {
      for (let i = offset; performance.now() < stopAt; i++) {
        const url = PTP_URLS[i % PTP_URLS.length]!;
        const started = performance.now();
        try {
          const response = await fetch(base + url);
          const got = `${response.status} ${Buffer.from(await response.arrayBuffer()).toString('base64')}`;
          total++;
          if (got === expectedNew.get(url)) seen.new++;
          else if (got === expectedOld.get(url) && started < swappedAt) seen.old++;
          else problems.push(`${url}: ${got === expectedOld.get(url) ? 'the old generation after the swap' : `neither generation: ${got.slice(0, 80)}`}`);
        } catch (error) {
          problems.push(`${url}: ${String(error)}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, k) => worker(k)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const published = await ingest(['ptp', second, '--data-dir', dataDir]);
    assert.equal(published.code, 0, published.log);
    const g2 = readCurrentId(dataDir)!;
    await reloader.reload(); // what SIGHUP does; the poll may have got there first
    await load;
    assert.deepEqual(problems.slice(0, 5), [], `${problems.length} problem(s) in ${total} requests`);
    assert.ok(seen.old > 0 && seen.new > 0, `answers: ${JSON.stringify(seen)}`);
    assert.ok(swappedAt < Infinity);
    const health = await (await fetch(`${base}/healthz`)).json();
    assert.equal(health.generation, g2);
    assert.ok(logs.some((line) => line.includes(`now serving generation ${g2}`)), logs.join('\n'));
    // Held state read at start (in the background) and for the new generation before its swap.
    assert.ok(logs.filter((line) => line.startsWith('held state: ')).length >= 2, logs.join('\n'));

    // A generation that cannot be loaded (a truncated Parquet file): the old one keeps serving, the reason is logged.
    const broken = '999999-20991231T000000Z';
    await cp(generationDir(dataDir, g2), generationDir(dataDir, broken), { recursive: true });
    await truncate(join(generationDir(dataDir, broken), 'ptp_crashes.parquet'), 100);
    await writeFile(join(dataDir, 'CURRENT'), `${broken}\n`);
    assert.equal(await reloader.reload(), null);
    assert.ok(logs.some((line) => line.includes(`generation ${broken} failed to load; still serving ${g2}`)), logs.join('\n'));
    assert.equal((await (await fetch(`${base}/healthz`)).json()).generation, g2);
    for (const url of PTP_URLS) {
      const response = await fetch(base + url);
      assert.equal(`${response.status} ${Buffer.from(await response.arrayBuffer()).toString('base64')}`, expectedNew.get(url), url);
    }
    await writeFile(join(dataDir, 'CURRENT'), `${g2}\n`);
  } finally {
    reloader.stop();
    await new Promise((resolve) => server.close(resolve));
    await snapshots.close();
  }
});
