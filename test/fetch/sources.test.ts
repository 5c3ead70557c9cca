// The table of official addresses covers what the routes read, names the addresses of data/sources.md,
// and the shipped operator example passes the operator file's checks.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEVBANK_WDI_IDS } from '../../domains/country/indicators.ts';
import { DEVBANK, FLAGSHIP_DATASETS } from '../../domains/energy/queries/constants.ts';
import { ECB_SERIES } from '../../domains/macro/queries/tables.ts';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { UsageError } from '../../ingest/command.ts';
import { readFetchConfig } from '../../ingest/fetch/config.ts';
import { ECB_REQUESTS, EUROSTAT_DATASETS, FETCH_SOURCE_NAMES, FETCH_SOURCES, fetchSourceNamed, fileNameOf, plansOf, WDI_INDICATORS } from '../../ingest/fetch/sources.ts';
import { projectRoot } from '../helpers/cli.ts';

const NOW = new Date('2026-11-22T12:00:00Z');

test('one fetch source per ingest command, under the same name', () => {
  assert.deepEqual([...FETCH_SOURCE_NAMES].sort(), ingestCommandsOf(DOMAINS).map((c) => c.source).sort());
});

test('the ECB requests carry every series the macro routes read', () => {
  // Expand each request's `+` alternatives into full series keys and match them against the routes' patterns.
  const keys = ECB_REQUESTS.flatMap(({ flow, key }) => {
    const parts = key.split('.').map((part) => part.split('+'));
    return parts.reduce<string[]>((acc, options) => acc.flatMap((prefix) => options.map((option) => `${prefix}.${option}`)), [flow]);
  });
  for (const [code, pattern] of Object.entries(ECB_SERIES)) assert.ok(keys.some((key) => pattern.test(key)), `${code}: ${keys.join(' ')}`);
});

test('Eurostat and World Bank: every dataset and indicator the energy, country and macro routes read', () => {
  for (const code of [...FLAGSHIP_DATASETS, 'prc_hicp_manr']) assert.ok(EUROSTAT_DATASETS.includes(code), code);
  for (const id of [...DEVBANK_WDI_IDS, ...Object.values(DEVBANK)]) assert.ok(WDI_INDICATORS.includes(id), id);
});

test('the addresses are the publishers\' (data/sources.md)', () => {
  const urls = (name: string, env: NodeJS.ProcessEnv = {}) => plansOf(fetchSourceNamed(name)!, { env, now: NOW, config: undefined }).flatMap((p) => p.pages.map((page) => page.url));
  assert.deepEqual(urls('eurofxref'), ['https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip']);
  assert.ok(urls('fred').includes('https://fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10'));
  const api = plansOf(fetchSourceNamed('fred')!, { env: { FRED_API_KEY: 'secret-key' }, now: NOW, config: undefined });
  assert.equal(api[0]!.pages[0]!.url, 'https://api.stlouisfed.org/fred/series/observations?series_id=DGS10&file_type=json');
  assert.deepEqual(api[0]!.pages[0]!.secret, { api_key: 'secret-key' });
  assert.ok(urls('eurostat').includes('https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1/data/nrg_ind_ren?format=TSV&compressed=true'));
  assert.ok(urls('worldbank').includes('https://api.worldbank.org/v2/en/indicator/EG.IMP.CONS.ZS?downloadformat=csv'));
  assert.ok(urls('cardgame').includes('https://api.hearthstonejson.com/v1/latest/enUS/cards.collectible.json'));
  assert.ok(urls('oecd').every((url) => url.startsWith('https://sdmx.oecd.org/public/rest/data/') && url.endsWith('format=csvfilewithlabels')));
  // 2016..2026: eleven yearly pages per sector; 2016-2020, 2021-2025, 2026: three Comext chunks.
  assert.equal(urls('agrifood').length, 3 * 11);
  assert.deepEqual(urls('trade').map((url) => url.slice(url.indexOf('startPeriod'))), ['startPeriod=2016&endPeriod=2020', 'startPeriod=2021&endPeriod=2025', 'startPeriod=2026&endPeriod=2026']);
  for (const name of ['sebra', 'ptp', 'ets']) assert.deepEqual(urls(name), [], name);
});

test('an operator dataset adds to (or replaces) the built-in ones; its file name comes from the address', () => {
  const plans = plansOf(fetchSourceNamed('ets')!, {
    env: {}, now: NOW, config: { datasets: [{ url: 'https://climate.ec.europa.eu/document/download/abc_en?filename=verified_emissions_2024_en.xlsx' }] },
  });
  assert.deepEqual(plans.map((p) => [p.dataset, p.file]), [['verified_emissions_2024_en.xlsx', 'verified_emissions_2024_en.xlsx']]);
  assert.equal(fileNameOf('https://x.example/a/b/../we ird?.csv'), 'we_ird');
  const only = plansOf(fetchSourceNamed('cardgame')!, { env: {}, now: NOW, config: { builtin: false, datasets: [{ url: 'https://x.example/bg.json', options: { lang: 'bg' } }] } });
  assert.deepEqual(only.map((p) => [p.file, p.options]), [['bg.json', { lang: 'bg' }]]);
});

test('the shipped example passes the operator file\'s checks; a bad file is a usage error naming the problem', async () => {
  const example = await readFetchConfig(path.join(projectRoot, 'data/config/sources.example.json'), FETCH_SOURCE_NAMES);
  assert.deepEqual(Object.keys(example.sources).sort(), [...FETCH_SOURCE_NAMES].sort());
  for (const source of FETCH_SOURCES) assert.equal(example.sources[source.name]!.schedule, source.schedule, `${source.name}: the example shows the default`);
  const folder = await mkdtemp(path.join(tmpdir(), 'fetch-config-'));
  try {
    const file = path.join(folder, 'sources.json');
    const refused = async (text: string, pattern: RegExp) => {
      await writeFile(file, text);
      await assert.rejects(readFetchConfig(file, FETCH_SOURCE_NAMES), (error: unknown) => error instanceof UsageError && pattern.test(error.message));
    };
    await refused('{', /not JSON/);
    await refused('{"sources":{"nosuch":{}}}', /unknown source "nosuch"/);
    await refused('{"sources":{"ecb":{"schedule":"99 * * * *"}}}', /sources\.ecb\.schedule/);
    await refused('{"sources":{"ecb":{"datasets":[{"url":"file:///etc/passwd"}]}}}', /\/sources\/ecb\/datasets\/0\/url/);
    await refused('{"sources":{"ecb":{"datasets":[{"url":"https://x.example/a","file":"../escape"}]}}}', /file/);
    assert.deepEqual(await readFetchConfig(path.join(folder, 'absent.json'), FETCH_SOURCE_NAMES), { sources: {} });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('npm run fetch: usage errors exit 2 before anything is fetched; --help lists every source and exit code 6', async () => {
  const { runFetchCli } = await import('../../ingest/fetch/run.ts');
  const { EXIT } = await import('../../ingest/exitCodes.ts');
  const lines: string[] = [];
  const io = { commands: ingestCommandsOf(DOMAINS), log: (line: string) => lines.push(line), env: { FETCH_MIRROR: 'http://127.0.0.1:1' }, fetch: () => Promise.reject(new Error('no request expected')) };
  assert.equal(await runFetchCli(['nosuch'], io), EXIT.usage);
  assert.match(lines.at(-1)!, /unknown source "nosuch"/);
  assert.equal(await runFetchCli([], io), EXIT.usage);
  assert.equal(await runFetchCli(['--all', 'ecb'], io), EXIT.usage);
  let help = '';
  assert.equal(await runFetchCli(['--help'], { ...io, out: (text: string) => { help = text; } }), EXIT.ok);
  assert.match(help, /^usage: npm run fetch -- <source>\.\.\. \| --all/);
  for (const name of FETCH_SOURCE_NAMES) assert.match(help, new RegExp(`^  ${name} `, 'm'));
  assert.match(help, /^ {2}6 {2}npm run fetch: some datasets failed/m);
});
