// The hand-made energy fixture: small Eurostat TSVs (written with the readers' writer, ingested by the
// generic reader), ETS CSVs, and a test app serving only the energy routes over it. Expected values are
// worked out by hand in endpoints.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Database } from '../../engine/database.ts';
import { loadImports } from '../../queries/imports.ts';
import { loadEurostat } from '../../ingest/eurostat/load.ts';
import { ingestEurostatFiles } from '../../ingest/eurostat/snapshot.ts';
import { writeEurostatTsv, type EurostatWriteRow } from '../../ingest/eurostat/write.ts';
import { loadWorldBank } from '../../ingest/worldbank/load.ts';
import { writeWdiBulkCsv } from '../../ingest/worldbank/write.ts';
import { ingestWorldBankFiles } from '../../ingest/worldbank/snapshot.ts';
import { ingestEtsFiles } from '../../domains/energy/ingest/etsSnapshot.ts';
import { loadEtsSnapshot } from '../../domains/energy/queries/etsTables.ts';
import { buildEnergy, energyRoutes } from '../../domains/energy/queries/index.ts';
import { serveTestApp, type TestApp } from '../helpers/app.ts';
import { EU27 } from '../../domains/energy/queries/constants.ts';

export const FIXTURE_NOW = new Date('2026-11-22T12:00:00Z');

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

const row = (dims: Record<string, string>, time_period: string, obs_value: number | null, obs_flag: string | null = null): EurostatWriteRow => ({
  dims, time_period, obs_value, obs_flag,
});

function balance(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const put = (geo: string, siec: string, unit: string, year: string, values: Record<string, number>) => {
    for (const [nrg_bal, value] of Object.entries(values)) rows.push(row({ freq: 'A', nrg_bal, siec, unit, geo }, year, value));
  };
  put('DE', 'TOTAL', 'KTOE', '2021', { PPRD: 100, GIC: 300, FC_E: 200, IMP: 260, EXP: 40, GAE: 320 });
  put('DE', 'TOTAL', 'KTOE', '2022', { PPRD: 90, GIC: 290, IMP: 250, EXP: 30, GAE: 310 });
  put('DE', 'C0000X0350-0370', 'KTOE', '2021', { GIC: 120 });
  put('DE', 'G3000', 'KTOE', '2021', { GIC: 90 });
  put('DE', 'RA000', 'KTOE', '2021', { GIC: 60 });
  put('DE', 'E7000', 'KTOE', '2021', { GIC: -5 });
  put('DE', 'TOTAL', 'TJ', '2021', { GIC: 12560.4 });
  put('FR', 'TOTAL', 'KTOE', '2022', { PPRD: 120, GIC: 230, FC_E: 140, IMP: 130, EXP: 30, GAE: 250 });
  put('EL', 'TOTAL', 'KTOE', '2022', { PPRD: 5, GIC: 20, FC_E: 15, IMP: 30, EXP: 10, GAE: 21 });
  return rows;
}

function electricity(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const put = (geo: string, year: string, values: Record<string, number>) => {
    for (const [nrg_bal, value] of Object.entries(values)) rows.push(row({ freq: 'A', nrg_bal, siec: 'E7000', unit: 'GWH', geo }, year, value));
  };
  put('FR', '2022', { GEP: 500, NEP: 480, FC_E: 400, IMP: 20, EXP: 100 });
  put('DE', '2022', { GEP: 400, NEP: 380, FC: 450, IMP: 60, EXP: 10 });
  put('EL', '2022', { GEP: 50, IMP: 5, EXP: 5 });
  return rows;
}

/** REN share: 2021 = 10 + index in EU27 (BE 12, tying BG), AT only 2019; DE falls, FR rises. */
function renewables(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const put = (geo: string, year: string, value: number | null, flag: string | null = null) =>
    rows.push(row({ freq: 'A', nrg_bal: 'REN', unit: 'PC', geo }, year, value, flag));
  EU27.forEach((geo, i) => {
    if (geo === 'AT') return;
    put(geo, '2021', geo === 'BE' ? 12 : 10 + i);
  });
  put('AT', '2019', 9);
  put('DE', '2019', 16);
  put('DE', '2020', 16.5);
  put('DE', '2022', 14, 'p');
  put('FR', '2019', 17);
  put('FR', '2020', 18);
  put('FR', '2022', 22);
  put('EL', '2020', null, 'c');
  put('EL', '2022', 18.2);
  rows.push(row({ freq: 'A', nrg_bal: 'REN_ELC', unit: 'PC', geo: 'DE' }, '2021', 45.5));
  return rows;
}

function intensity(): EurostatWriteRow[] {
  return [
    row({ freq: 'A', nrg_bal: 'EI_GDP_CLV20', unit: 'KGOE_TEUR_CLV20', geo: 'DE' }, '2021', 100),
    row({ freq: 'A', nrg_bal: 'EI_GDP_CLV20', unit: 'KGOE_TEUR_CLV20', geo: 'DE' }, '2022', 95),
    row({ freq: 'A', nrg_bal: 'EI_GDP_CLV10', unit: 'KGOE_TEUR_CLV10', geo: 'DE' }, '2022', 130),
  ];
}

function prices(): EurostatWriteRow[] {
  const dims = (geo: string, tax = 'I_TAX') => ({ freq: 'S', product: '6000', nrg_cons: 'KWH2500-4999', unit: 'KWH', tax, currency: 'EUR', geo });
  return [
    row(dims('DE'), '2021-S2', 0.32),
    row(dims('DE'), '2022-S1', 0.35),
    row(dims('DE'), '2022-S2', 0.4),
    row(dims('DE', 'X_TAX'), '2022-S2', 0.3),
    row(dims('FR'), '2022-S1', 0.2),
  ];
}

export const INSTALLATION_CSV = [
  'id,name,addressmain,postalcode,city,country_id,latitudegoogle,longitudegoogle',
  'DE_1,Kraftwerk A,-,-,Essen,DE,,',
  'DE_2,Werk B,-,-,-,DE,,',
  'DE_3,Werk C,-,-,-,DE,,',
  'FR_10,Usine,-,-,Lyon,FR,,',
  'GR_5,Lignite,-,-,Kozani,GR,,',
].join('\r\n');

export const COMPLIANCE_CSV = [
  'installation_id,year,free,emission',
  'DE_1,2020,0,1000',
  'DE_1,2021,0,900',
  'DE_2,2020,5,500',
  'DE_2,2021,5,900',
  'DE_3,2021,10,',
  'FR_10,2021,0,300',
  'GR_5,2018,0,800',
].join('\r\n');

/** Writes the source files and ingests them into <root>/parquet. */
export async function writeEnergyFixture(): Promise<{ root: string; dataDir: string }> {
  const root = await tempDir('energy-fixture-');
  const source = path.join(root, 'source');
  const dataDir = path.join(root, 'parquet');
  await mkdir(path.join(source, 'estat'), { recursive: true });
  await writeEurostatTsv(path.join(source, 'estat', 'estat_nrg_bal_s.tsv'), 'nrg_bal_s', balance());
  await writeEurostatTsv(path.join(source, 'estat', 'estat_nrg_cb_e.tsv'), 'nrg_cb_e', electricity());
  await writeEurostatTsv(path.join(source, 'estat', 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', renewables());
  await writeEurostatTsv(path.join(source, 'estat', 'estat_nrg_ind_ei.tsv'), 'nrg_ind_ei', intensity());
  await writeEurostatTsv(path.join(source, 'estat', 'estat_nrg_pc_204.tsv'), 'nrg_pc_204', prices());
  await ingestEurostatFiles({ dataDir, path: path.join(source, 'estat'), now: () => FIXTURE_NOW });
  await writeFile(path.join(source, 'installation.csv'), INSTALLATION_CSV);
  await writeFile(path.join(source, 'compliance.csv'), COMPLIANCE_CSV);
  await ingestEtsFiles([path.join(source, 'compliance.csv'), path.join(source, 'installation.csv')], { dataDir, now: () => FIXTURE_NOW });
  await mkdir(path.join(source, 'wdi'), { recursive: true });
  await writeWdiBulkCsv(path.join(source, 'wdi', 'API_EG.IMP.CONS.ZS_DS2_en_csv_v2_1.csv'),
    { code: 'EG.IMP.CONS.ZS', name: 'Energy imports, net (% of energy use)', lastUpdated: '2025-07-01' }, [
      { country_code: 'DEU', country_name: 'Germany', year: 2019, value: 60 },
      { country_code: 'DEU', country_name: 'Germany', year: 2020, value: 63.5 },
      { country_code: 'DEU', country_name: 'Germany', year: 2021, value: null },
      { country_code: 'GRC', country_name: 'Greece', year: 2021, value: 81.2 },
      { country_code: 'EUU', country_name: 'European Union', year: 2021, value: 57 },
    ]);
  await writeWdiBulkCsv(path.join(source, 'wdi', 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_2.csv'),
    { code: 'EG.FEC.RNEW.ZS', name: 'Renewable energy consumption (% of total final energy consumption)', lastUpdated: '2025-07-01' }, [
      { country_code: 'DEU', country_name: 'Germany', year: 2020, value: 19.1 },
      { country_code: 'DEU', country_name: 'Germany', year: 2021, value: 19.4 },
    ]);
  await ingestWorldBankFiles({ dataDir, path: path.join(source, 'wdi'), now: () => FIXTURE_NOW });
  return { root, dataDir };
}

/** The energy routes over a snapshot (what the domain's load does), on an ephemeral loopback port. */
export async function startEnergyApp(dataDir: string, cleanup?: string): Promise<TestApp> {
  const db = await Database.open();
  await loadImports(db, dataDir);
  await loadEurostat(db, dataDir);
  await loadWorldBank(db, dataDir);
  await loadEtsSnapshot(db, dataDir);
  await buildEnergy(db);
  await db.lockDown();
  return serveTestApp(db, energyRoutes, {
    now: () => FIXTURE_NOW,
    logError: (e) => console.error(e),
    onClose: async () => {
      if (cleanup) await rm(cleanup, { recursive: true, force: true });
    },
  });
}
