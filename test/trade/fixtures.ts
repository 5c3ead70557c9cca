// A hand-made Comext extract in the real SDMX-CSV layout and a few agri-food cereal prices in the
// portal's JSON layout, small enough to work out every balance, share, change and z-score by hand
// (the expected values are in the tests' comments), and a helper that ingests both into a snapshot.
//
// Trade (partner WORLD unless said; V = VALUE_IN_EUROS, Q = QUANTITY_IN_100KG):
//   RO 1001 imports   2020 V1000 Q500 | 2021 V1100 Q520 | 2022 V confidential ("", flag c) Q600 | 2023 V2200 Q1500
//   RO 1001 exports   2020 V5000 Q2500 | 2021 V6000 Q2800 | 2022 V9000 Q3600 | 2023 V4500 Q3000
//   RO 1001 2023 partners: EXT_EU27_2020 imp V1500 Q1000, exp V3500 Q2400; INT_EU27_2020 imp V700 Q500, exp V1000 Q600;
//     UA imp V1200 Q800; BG imp V500 Q100; US exp V1000 Q600; EG exp V2000 Q500; TR exp V confidential Q50
//   FR 1001 imports   2022 V500 Q250 | 2023 V520 Q260;  exports 2022 V7000 Q3500 | 2023 V8000 Q3900
//   HU 1005 imports   monthly 2024-01..2024-12 V10, V20, ..., V120 (Q1..Q12), and 2025-01 V130 Q13
// Prices (cereals_prices, weekly, EUR/t):
//   RO Breadmaking common wheat (Constanta, FOB): 2020-03-02 200, 2020-03-09 220, 2021-03-01 250, 2022-03-07 300
//   RO Feed wheat (Constanta, FOB): 2020-03-02 180, 2021-03-01 230
//   RO Durum wheat 2021-03-01 999 (not a price product of 1001); RO Feed barley 2021-03-01 150
//   FR Breadmaking common wheat (Rouen, FOB): 2022-03-07 280
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ingestAgrifoodFiles } from '../../domains/agrifood/ingest/snapshot.ts';
import { ingestTradeFiles } from '../../domains/trade/ingest/snapshot.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

export const HEADER = 'DATAFLOW,LAST UPDATE,freq,reporter,partner,product,flow,indicators,TIME_PERIOD,OBS_VALUE,OBS_FLAG';
const DATAFLOW = 'ESTAT:DS-045409(1.0)';

/** Two SDMX-CSV lines (quantity, value) of one observation; null value = confidential (flag c). */
export function lines(reporter: string, partner: string, product: string, flow: 1 | 2, period: string, value: number | null, quantity: number | null, lastUpdate = '15/09/26 11:00:00'): string[] {
  const freq = period.length === 4 ? 'A' : 'M';
  const cell = (v: number | null) => (v === null ? ',c' : `${v},`);
  return [
    `${DATAFLOW},${lastUpdate},${freq},${reporter},${partner},${product},${flow},QUANTITY_IN_100KG,${period},${cell(quantity)}`,
    `${DATAFLOW},${lastUpdate},${freq},${reporter},${partner},${product},${flow},VALUE_IN_EUROS,${period},${cell(value)}`,
  ];
}

export function tradeFixtureCsv(): string {
  const rows: string[] = [HEADER];
  const add = (...args: Parameters<typeof lines>) => rows.push(...lines(...args));
  add('RO', 'WORLD', '1001', 1, '2020', 1000, 500);
  add('RO', 'WORLD', '1001', 1, '2021', 1100, 520);
  add('RO', 'WORLD', '1001', 1, '2022', null, 600);
  add('RO', 'WORLD', '1001', 1, '2023', 2200, 1500);
  add('RO', 'WORLD', '1001', 2, '2020', 5000, 2500);
  add('RO', 'WORLD', '1001', 2, '2021', 6000, 2800);
  add('RO', 'WORLD', '1001', 2, '2022', 9000, 3600);
  add('RO', 'WORLD', '1001', 2, '2023', 4500, 3000);
  add('RO', 'EXT_EU27_2020', '1001', 1, '2023', 1500, 1000);
  add('RO', 'EXT_EU27_2020', '1001', 2, '2023', 3500, 2400);
  add('RO', 'INT_EU27_2020', '1001', 1, '2023', 700, 500);
  add('RO', 'INT_EU27_2020', '1001', 2, '2023', 1000, 600);
  add('RO', 'UA', '1001', 1, '2023', 1200, 800);
  add('RO', 'BG', '1001', 1, '2023', 500, 100);
  add('RO', 'US', '1001', 2, '2023', 1000, 600);
  add('RO', 'EG', '1001', 2, '2023', 2000, 500);
  add('RO', 'TR', '1001', 2, '2023', null, 50);
  add('FR', 'WORLD', '1001', 1, '2022', 500, 250);
  add('FR', 'WORLD', '1001', 1, '2023', 520, 260);
  add('FR', 'WORLD', '1001', 2, '2022', 7000, 3500);
  add('FR', 'WORLD', '1001', 2, '2023', 8000, 3900);
  for (let month = 1; month <= 12; month++) add('HU', 'WORLD', '1005', 1, `2024-${String(month).padStart(2, '0')}`, 10 * month, month);
  add('HU', 'WORLD', '1005', 1, '2025-01', 130, 13);
  return `${rows.join('\n')}\n`;
}

/** Published (pivoted) trade rows of the fixture: RO 8 WORLD + 9 partner rows, FR 4, HU 13. */
export const TRADE_FACT_ROWS = 34;

const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function cereal(state: string, stateName: string, product: string, market: string, begin: string, price: string) {
  return {
    memberStateCode: state, memberStateName: stateName, beginDate: dmy(begin), endDate: null, weekNumber: 36,
    price, unit: 'Tonne', productName: product, productCode: null, marketName: market, stageName: 'Free on board',
    stageCode: 'FOB', marketingYear: null,
  };
}

export function cerealsFixture() {
  return [
    cereal('RO', 'Romania', 'Breadmaking common wheat', 'Constanta', '2020-03-02', '€200.00'),
    cereal('RO', 'Romania', 'Breadmaking common wheat', 'Constanta', '2020-03-09', '€220.00'),
    cereal('RO', 'Romania', 'Breadmaking common wheat', 'Constanta', '2021-03-01', '€250.00'),
    cereal('RO', 'Romania', 'Breadmaking common wheat', 'Constanta', '2022-03-07', '€300.00'),
    cereal('RO', 'Romania', 'Feed wheat', 'Constanta', '2020-03-02', '€180.00'),
    cereal('RO', 'Romania', 'Feed wheat', 'Constanta', '2021-03-01', '€230.00'),
    cereal('RO', 'Romania', 'Durum wheat', 'Constanta', '2021-03-01', '€999.00'),
    cereal('RO', 'Romania', 'Feed barley', 'Constanta', '2021-03-01', '€150.00'),
    cereal('FR', 'France', 'Breadmaking common wheat', 'Rouen', '2022-03-07', '€280.00'),
  ];
}

export const FIXTURE_NOW = new Date('2026-11-20T10:00:00.000Z');

/** A fresh temporary folder, removed when the test process exits (also after a failure). */
export async function tempDir(prefix: string): Promise<string> {
  return tempDirUntilExit(prefix);
}

/** The fixture snapshot: trade (one file) and cereal prices, in a temporary folder `root` the caller removes (removeFixture). */
export async function writeTradeFixtureSnapshot(): Promise<{ root: string; dataDir: string; sourceDir: string; tradeFile: string }> {
  const root = await tempDir('trade-fixture-');
  const sourceDir = path.join(root, 'source');
  const dataDir = path.join(root, 'parquet');
  await mkdir(sourceDir, { recursive: true });
  const tradeFile = path.join(sourceDir, 'comext-fixture.csv');
  await writeFile(tradeFile, tradeFixtureCsv());
  const cerealsFile = path.join(sourceDir, 'cereals.json');
  await writeFile(cerealsFile, JSON.stringify(cerealsFixture()));
  await ingestTradeFiles([tradeFile], { dataDir, now: () => FIXTURE_NOW });
  await ingestAgrifoodFiles([cerealsFile], { dataDir, dataset: 'cereals_prices', now: () => FIXTURE_NOW });
  return { root, dataDir, sourceDir, tradeFile };
}

/** Removes a fixture's temporary folder (nothing when it was never made). */
export async function removeFixture(root: string | undefined): Promise<void> {
  if (root) await rm(root, { recursive: true, force: true });
}
