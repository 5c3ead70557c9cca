// The energy, macro and country domains' load is SQL only: a database file built by their `load` and
// reopened read-only without running it (as the server opens a generation's serving database) answers
// every catalog example of their routes, and the country overview over all three, byte for byte as
// the database they were loaded into. Nothing is kept on the JavaScript side per database.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { energyDomain } from '../../domains/energy/index.ts';
import { energyEurostatSampleSource, energyWorldBankSampleSource, etsSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { macroDomain } from '../../domains/macro/index.ts';
import { ecbSampleSource, eurofxrefSampleSource, fredSampleSource, hicpSampleSource } from '../../domains/macro/ingest/sampleSource.ts';
import { countryDomain } from '../../domains/country/index.ts';
import { countrySampleSource } from '../../domains/country/ingest/sampleSource.ts';
import { loadDomains, openDomains, routesOf } from '../../domains/registry.ts';
import { Dispatcher, errorAnswer } from '../../http/dispatch.ts';
import { sampleSnapshot } from '../helpers/app.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import { removeDir, tempDir } from './files.ts';

const domains = [energyDomain, macroDomain, countryDomain];
const routes = routesOf(domains);
let root: string;
let sample: { dataDir: string; remove(): Promise<void> } | undefined;
let memory: Database;
let file: Database;

before(async () => {
  root = await tempDir('serving-parity-');
  // Every source of the three domains (under `npm test`, the full sample built once per run).
  sample = await sampleSnapshot('serving-parity-sample-', [
    energyEurostatSampleSource, etsSampleSource, energyWorldBankSampleSource, ecbSampleSource, eurofxrefSampleSource, fredSampleSource,
    hicpSampleSource, countrySampleSource,
  ]);
  const { dataDir } = sample;
  memory = await Database.open();
  await loadDomains(domains, memory, dataDir);
  const serving = path.join(root, 'serving.duckdb');
  const writer = await Database.open({ file: serving });
  await loadDomains(domains, writer, dataDir);
  await writer.run('CHECKPOINT');
  await writer.close();
  file = await Database.open({ file: serving, readOnly: true });
  await openDomains(domains, file);
});
after(async () => {
  await memory?.close();
  await file?.close();
  if (root) await removeDir(root);
  await sample?.remove();
});

/** Status and bytes of one request, as the dispatcher (HTTP's code path) answers it from db. */
async function answer(db: Database, target: string): Promise<{ status: number; body: string }> {
  const dispatcher = new Dispatcher({ db, routes, today: () => '2026-11-22' });
  try {
    const { encoded } = await dispatcher.dispatch({ method: 'GET', target });
    return { status: 200, body: String(encoded.body) };
  } catch (error) {
    const body = errorAnswer(error);
    return { status: body.error.status, body: JSON.stringify(body) };
  }
}

test('a serving file reopened without load answers every example as the loaded database does', async () => {
  const targets = routes.flatMap((route) => exampleRequests(route).map((request) => request.url));
  targets.push(
    '/api/v1/energy/latest?dataset_id=nrg_bal_s&dim.nrg_bal=NOPE', '/api/v1/energy/compare?dataset_id=nrg_pc_204&geos=DE,FR,EL&freq=S',
    '/api/v1/energy/series?dataset_id=nrg_zzz&geo=DE', '/api/v1/fx/eurusd-analytics?lookback_days=2000',
    '/api/economic/country/FR/overview', '/api/economic/country/GR/overview',
  );
  let answered = 0;
  for (const target of targets) {
    const [fromMemory, fromFile] = [await answer(memory, target), await answer(file, target)];
    assert.deepEqual(fromFile, fromMemory, target);
    if (fromMemory.status === 200) answered++;
  }
  assert.ok(answered >= targets.length - 4, `${answered} of ${targets.length} answered 200`);
});
