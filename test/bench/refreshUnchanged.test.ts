// The no-change refresh bench case (bench/refreshUnchanged.ts) on the sample itself (scale 1): the first
// fetch publishes every built-in dataset, the no-change fetches send one conditional request per address,
// all answered 304, and make no generation; its report's fields say so.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { DOMAINS } from '../../domains/index.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';
import { measureUnchangedRefresh, type UnchangedRefreshFigures } from '../../bench/refreshUnchanged.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { buildSampleSnapshot } from '../http/sample-app.ts';

const NOW = new Date('2026-11-22T15:00:00Z');
// Counted by hand from ingest/fetch/sources.ts at NOW: eurofxref 1, ecb 4, fred 6, eurostat 6, worldbank 14,
// oecd 3, cardgame 1, agrifood 3 sectors, trade 3 five-year windows (2016-2020, 2021-2025, 2026).
const DATASETS = 1 + 4 + 6 + 6 + 14 + 3 + 1 + 3 + 3;
// The agri-food history is asked for a year a page: 2016..2026, 11 pages per sector.
const ADDRESSES = DATASETS - 3 + 3 * 11;
// OECD's three requests 4 s apart: two waits of 4 s on a clock that stands still.
const OECD_WAITS_MS = 2 * 4_000;

/**
 * The folder of every source's sample files: under `npm test` the run's shared sample's (generated
 * once for the run, only read here: the stand-in serves its files), else generated under root
 * (generating them all takes about 15 s of CPU).
 */
async function sampleFiles(root: string): Promise<string> {
  const shared = process.env.SAMPLE_SNAPSHOT_DIR;
  if (shared) {
    await buildSampleSnapshot(resolve(shared));
    return join(resolve(shared), 'sample');
  }
  for (const source of sampleSourcesOf(DOMAINS)) await source.generate(join(root, 'sample', source.name));
  return join(root, 'sample');
}

describe('bench: a refresh where nothing changed', () => {
  let figures: UnchangedRefreshFigures;
  const lines: string[] = [];

  before(async () => {
    const root = await tempDirUntilExit('bench-unchanged-');
    figures = await measureUnchangedRefresh({ sampleRoot: await sampleFiles(root), workDir: root, log: (line) => lines.push(line), runs: 1, now: () => NOW });
  });

  it('the first fetch downloads every built-in address and publishes every dataset', () => {
    assert.equal(figures.datasets, DATASETS);
    assert.equal(figures.addresses, ADDRESSES);
    assert.equal(figures.first.requests, ADDRESSES);
    assert.equal(figures.first.published, DATASETS);
  });

  it('the no-change fetch asks once per address, every answer a 304, and makes no generation', () => {
    assert.equal(figures.noGeneration, true);
    assert.equal(figures.unchanged.runs, 1);
    assert.equal(figures.unchanged.requests, ADDRESSES);
    assert.equal(figures.unchanged.notModified, ADDRESSES);
    assert.equal(figures.withIntervals.requests, ADDRESSES);
    assert.equal(figures.withIntervals.notModified, ADDRESSES);
  });

  it('the round with intervals sleeps the per-host waits the other rounds skip', () => {
    assert.equal(figures.unchanged.intervalWaitMs, OECD_WAITS_MS);
    assert.equal(figures.withIntervals.intervalWaitMs, OECD_WAITS_MS);
    assert.ok(figures.withIntervals.ms >= OECD_WAITS_MS, `${figures.withIntervals.ms} ms`);
    assert.ok(figures.unchanged.ms < figures.withIntervals.ms, `${figures.unchanged.ms} vs ${figures.withIntervals.ms} ms`);
    assert.ok(lines.some((line) => line.includes('first fetch published')), lines.join('\n'));
  });
});
