// Hand-made agri-food exports in the portal's real JSON layouts, small enough to work out every
// change, z-score and page by hand (the expected values are in the tests' comments), and a helper
// that ingests them into a fresh snapshot folder.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ingestAgrifoodFiles } from '../../domains/agrifood/ingest/snapshot.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

type PortalRecord = Record<string, unknown>;

/** "2026-01-05" -> "05/01/2026" */
export const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const sunday = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
/** The Monday `weeks` weeks after 2026-01-05. */
export const monday = (weeks: number) => new Date(Date.parse('2026-01-05T00:00:00Z') + weeks * 7 * 86_400_000).toISOString().slice(0, 10);

function cereal(state: string, stateName: string, product: string, code: string, market: string, stage: string, stageCode: string, week: number, price: unknown): PortalRecord {
  const begin = monday(week);
  return {
    memberStateCode: state, memberStateName: stateName, beginDate: dmy(begin), endDate: dmy(sunday(begin)),
    referencePeriod: `Week ${28 + week}`, weekNumber: 28 + week, price, unit: 'Tonne', productName: product, productCode: code,
    marketName: market, marketCode: market.slice(0, 3).toUpperCase(), stageName: stage, stageCode, marketingYear: '2025/2026',
  };
}

/**
 * Series A (FR Feed barley, Rouen, FOB): 200, 210, missing, 168, 168.
 * Series B (DE Breadmaking common wheat, Hamburg, Delivered port): ten weeks at 100 and a spike of
 * 210 in week 5 (2026-02-09). The portal lists newest first; so does this file.
 */
export function cerealsFixture(): PortalRecord[] {
  const a = ['€200.00', '€210.00', '', '€168.00', '€168,00'].map((price, week) =>
    cereal('FR', 'France', 'Feed barley', 'ORGFOUR', 'Rouen', 'Free on board', 'FOB', week, price));
  const b = Array.from({ length: 11 }, (_, week) =>
    cereal('DE', 'Germany', 'Breadmaking common wheat', 'BLTPAN', 'Hamburg', 'Delivered port', 'DELPORT', week, week === 5 ? '€210.00' : '€100.00'));
  return [...a, ...b].sort((x, y) => String(y.beginDate).split('/').reverse().join().localeCompare(String(x.beginDate).split('/').reverse().join()));
}

/** An older, smaller cereals export: version 1 of cereals_prices, replaced by cerealsFixture. */
export function cerealsOldFixture(): PortalRecord[] {
  return [cereal('FR', 'France', 'Feed barley', 'ORGFOUR', 'Rouen', 'Free on board', 'FOB', 0, '€999.00')];
}

/**
 * Bulgaria's sunflower seed as the portal sends it (no memberStateName, no endDate, "national
 * currency/ton" on euro prices): 1000.00 ("€1,000.00"), 1250.00 ("€1.250,00"), then no price (null).
 * France's rapeseed: the record quoted from the portal, one observation.
 */
export function oilseedsFixture(): PortalRecord[] {
  const bg = (week: number, price: unknown) => ({
    memberStateCode: 'BG', beginDate: dmy(monday(week)), price, unit: 'national currency/ton', weekNumber: 28 + week,
    product: 'Sunflower seed', productType: 'Standard', marketStage: 'FGATE', market: 'National Average', marketingYear: '2025/2026',
  });
  return [
    { memberStateCode: 'FR', memberStateName: 'France', beginDate: '27/07/2026', endDate: '02/08/2026', price: '€524.00', unit: 'national currency/ton', weekNumber: 5, product: 'Rapeseed', productType: 'N.A.', marketStage: 'DELPROC', market: 'Rouen', marketingYear: '2026/2027' },
    bg(2, null),
    bg(1, '€1.250,00'),
    bg(0, '€1,000.00'),
  ];
}

/** Germany class S at 150.00 twice (no spread: z-score null); Portugal class E, the documentation's record. */
export function pigmeatFixture(): PortalRecord[] {
  const de = (week: number) => ({
    memberStateCode: 'DE', memberStateName: 'Germany', beginDate: dmy(monday(week)), endDate: dmy(sunday(monday(week))),
    weekNumber: 2 + week, pigClass: 'S', unit: '100KG', price: '€150.00',
  });
  return [
    de(1),
    de(0),
    { memberStateCode: 'PT', memberStateName: 'Portugal', beginDate: '23/03/2020', endDate: '30/04/2020', weekNumber: 5, pigClass: 'E', unit: '100KG', price: '€18.17' },
  ];
}

export async function writeJson(dir: string, name: string, records: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(records));
  return file;
}

export const FIXTURE_NOW = new Date('2026-11-20T10:00:00.000Z');

/**
 * A snapshot of the fixtures: cereals v1 (old) then v2, oilseeds, pigmeat, ingested in that order in
 * one batch. Returns the snapshot folder and the source folder.
 */
export async function writeAgrifoodFixtureSnapshot(): Promise<{ dataDir: string; sourceDir: string }> {
  const root = await tempDirUntilExit('agrifood-fixture-');
  const sourceDir = path.join(root, 'source');
  const dataDir = path.join(root, 'parquet');
  await mkdir(sourceDir, { recursive: true });
  const files = [
    await writeJson(sourceDir, 'a-cereals-old.json', cerealsOldFixture()),
    await writeJson(sourceDir, 'b-cereals.json', cerealsFixture()),
    await writeJson(sourceDir, 'c-oilseeds.json', oilseedsFixture()),
    await writeJson(sourceDir, 'd-pigmeat.json', pigmeatFixture()),
  ];
  await ingestAgrifoodFiles(files, { dataDir, now: () => FIXTURE_NOW });
  return { dataDir, sourceDir };
}
