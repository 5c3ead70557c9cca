// A hand-made PTP source file (the portal's JSON rows) and what its accidents cluster into, worked
// out by hand below. The values tests ingest it through the real writer (clusters are made at ingest).
//
// Sites (one meridian, 24.75 E; 0.01 degree of latitude = 6371008.8 m * 0.01 * pi/180 = 1111.95 m):
//   S1 42.10000, 24.75000  a1, a2        S2 42.11000, 24.75000  a3 (1111.95 m north of S1)
//   S3 42.12500, 24.75000  a4 (2779.9 m from S1, 1667.9 m from S2)
//   S4 43.20000, 27.90000  b1, b2, b3    S5 42.69000, 23.32000  d1 (given swapped as 23,32 / 42,69)
// Accidents within 2 km of each site (weight = accidents, then deaths):
//   S1: S1+S2 = 3 (deaths 1)   S2: S1+S2+S3 = 4   S3: S2+S3 = 2   S4: 3 (deaths 1)   S5: 1
// Greedy order: S2 (4); S1 and S4 tie on 3 accidents and 1 death, S1 first by latitude; S3; S5.
//   S2 seeds cluster A and takes S1, S2, S3 (all within 2 km of S2) -> centre 42.11, 24.75,
//      location_id 421100 * 1e6 + 247500 = 421100247500; names: гр. Пловдив x3, с. Труд x1 -> гр. Пловдив.
//   S1 is taken; S4 seeds B -> 432000279000 (гр. Варна); S3 taken; S5 seeds C -> 426900233200 (гр. София).
// (Seeding at S1 instead would have left S3 alone: the densest site goes first.)
// c1, b4 and e1 have no coordinates: kept, never clustered.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ptpSampleSource } from '../../domains/ptp/ingest/sampleSource.ts';
import { ingestPtpFiles } from '../../domains/ptp/ingest/snapshot.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDir } from '../ingest/fixtures.ts';

export const HEADERS = [
  'Дата и час на ПТП', 'Област', 'Община', 'Населено място', 'Вид на ПТП', 'Място на ПТП',
  'Брой загинали', 'Брой ранени', 'Брой участници', 'Тежки ПТП', 'Географска ширина', 'Географска дължина',
];

/** [id, date, region, municipality, settlement, type, place, died, injured, participants, serious, lat, lon] */
export const FIXTURE_ROWS: string[][] = [
  ['a1', '15.03.2024 08:00', 'ПЛОВДИВ', 'Пловдив', 'ГР.ПЛОВДИВ', 'Блъскане на пешеходец', 'В населено място', '1', '0', '2', '1', '42,10000', '24,75000'],
  ['a2', '20.06.2024 17:30', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Блъскане между МПС', 'В населено място', '0', '2', '2', '1', '42,10000', '24,75000'],
  ['a3', '01.02.2025 09:15', 'ПЛОВДИВ', 'Марица', 'с. Труд', 'Самокатастрофа', 'Извън населено място', '0', '1', '1', '1', '42,11000', '24,75000'],
  ['a4', '10.07.2025 22:05', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '2', '1', '3', '1', '42,12500', '24,75000'],
  ['b1', '05.05.2024 12:00', 'ВАРНА', 'Варна', 'гр. Варна', 'Блъскане между МПС', 'В населено място', '1', '3', '2', '1', '43,20000', '27,90000'],
  ['b4', '05.05.2024 12:00', 'ВАРНА', 'Варна', 'гр. Варна', 'Самокатастрофа', 'В населено място', '0', '0', '1', '0', '', ''],
  ['b2', '06.05.2024 12:00', 'ВАРНА', 'Варна', 'гр. Варна', 'Блъскане в неподвижно МПС', 'В населено място', '0', '1', '2', '', '43,20000', '27,90000'],
  ['b3', '01.01.2025 00:30', 'ВАРНА', 'Варна', 'гр. Варна', 'Блъскане в неподвижно МПС', 'В населено място', '0', '0', '2', '0', '43,20000', '27,90000'],
  ['c1', '14.02.2025 10:00', 'СОФИЯ', 'Столична', 'гр. София', 'Блъскане на пешеходец', 'В населено място', '3', '0', '', '1', '', ''],
  ['d1', '03.03.2025 07:45', 'СОФИЯ', 'Столична', 'гр. София', 'Блъскане между МПС', 'В населено място', '0', '1', '2', '1', '23,32000', '42,69000'],
  ['e1', '10.10.2025 06:10', 'СОФИЙСКА', 'Ботевград', 'гр. Ботевград', 'Преобръщане', 'Извън населено място', '0', '1', '1', '1', '', ''],
];

export const CLUSTER_A = 421100247500;
export const CLUSTER_B = 432000279000;
export const CLUSTER_C = 426900233200;

/** The fixture as the portal serves it: {"success":true,"data":[[headers],[row]...]}. */
export function portalJson(rows: string[][] = FIXTURE_ROWS): string {
  return JSON.stringify({ success: true, data: [HEADERS, ...rows.map((row) => row.slice(1))] });
}

/** Writes the fixture file and ingests it into a fresh data folder; returns the folder. */
export async function fixtureSnapshot(): Promise<string> {
  const sources = await tempDir('ptp-fixture-');
  const file = join(sources, 'ptp-fixture.json');
  await writeFile(file, portalJson());
  const dataDir = join(sources, 'parquet');
  await ingestPtpFiles([file], { dataDir, now: () => new Date('2026-11-01T10:00:00Z') });
  return dataDir;
}

/** The generated PTP sample (thousands of accidents), ingested into a fresh folder and served by a test app. */
export async function sampleApp(prefix: string): Promise<TestApp> {
  const root = await tempDir(prefix);
  await ptpSampleSource.generate(join(root, 'sample'));
  await ptpSampleSource.ingest({ dataDir: join(root, 'parquet'), sampleDir: join(root, 'sample'), log: () => undefined });
  return startTestApp(join(root, 'parquet'));
}

/** The accident item's columns as a plain statement selects them (the expected answers of the window tests). */
export const CRASH_ITEM_SQL = `strftime(crash_datetime, '%Y-%m-%dT%H:%M:%S') AS crash_datetime, crash_type, ptp_place, region,
  municipality, location, latitude, longitude, died_count, injured_count, participant_count, is_major`;

/** DD-MM-YYYY (the routes' from/to) -> YYYY-MM-DD. */
export const isoOfDay = (day: string) => `${day.slice(6)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
