// Deterministic sample of the agri-food portal's price exports, in the real JSON layouts:
//   cereal-prices-2025-06-30.json   an older, smaller cereals export (France only, 2024/2025 marketing
//                                   year): a first import version, superseded by the next file;
//   cereal-prices-2026-11-16.json   cereals: productName/productCode/marketName/stageName/... ;
//   oilseeds-prices-2026-11-16.json oilseeds: product/productType/market/marketStage/marketingYear;
//   pigmeat-prices-2026-11-16.json  pigmeat: pigClass, calendar week numbers, no market or stage.
// Weekly prices (Monday begin dates) from 2016-01-04 to 2026-11-09 for eight member states, newest
// first as the portal lists them, with the real quirks: "€"-prefixed price strings, some with a
// decimal comma (Romania), Bulgarian oilseed records without memberStateName and endDate (as in the
// portal's own answer), Hungary's oilseed unit "national currency/ton" on euro prices, a few weeks
// without a price (empty string or null), cereal and oilseed week numbers counted from the marketing
// year (week 1 holds 1 July) and pigmeat weeks counted from January (ISO weeks).
// Prices follow a slow cycle, a random walk and the 2021-2022 surge, and PLANTED_MOVES are added on
// top: one-week spikes and lasting steps large enough for the anomaly and change endpoints.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import { findMemberState } from '../../../reference/countries.ts';
import { Random } from '../../../ingest/random.ts';

export const SAMPLE_FIRST_WEEK = '2016-01-04';
export const SAMPLE_LAST_WEEK = '2026-11-09';

export const SAMPLE_FILES = {
  cerealsOld: 'cereal-prices-2025-06-30.json',
  cereals: 'cereal-prices-2026-11-16.json',
  oilseeds: 'oilseeds-prices-2026-11-16.json',
  pigmeat: 'pigmeat-prices-2026-11-16.json',
} as const;

export const SAMPLE_STATES = ['DE', 'FR', 'BG', 'RO', 'PL', 'HU', 'ES', 'IT'] as const;

interface CerealSeries {
  state: string;
  productName: string;
  productCode: string;
  marketName: string;
  marketCode: string;
  stageName: string;
  stageCode: string;
  base: number;
}

const CEREAL_PRODUCTS: ReadonlyArray<{ name: string; code: string; base: number }> = [
  { name: 'Breadmaking common wheat', code: 'BLTPAN', base: 185 },
  { name: 'Feed wheat', code: 'BLTFOUR', base: 172 },
  { name: 'Feed barley', code: 'ORGFOUR', base: 160 },
  { name: 'Malting barley', code: 'ORGBRAS', base: 190 },
  { name: 'Feed maize', code: 'MAI', base: 168 },
  { name: 'Durum wheat', code: 'BLTDUR', base: 260 },
];

/** Each state's market and which cereal products it reports. */
const CEREAL_MARKETS: Record<string, { market: string; code: string; stage: string; stageCode: string; products: string[] }> = {
  DE: { market: 'Hamburg', code: 'HAM', stage: 'Delivered port', stageCode: 'DELPORT', products: ['BLTPAN', 'ORGFOUR', 'ORGBRAS', 'MAI'] },
  FR: { market: 'Rouen', code: 'ROU', stage: 'Free on board', stageCode: 'FOB', products: ['BLTPAN', 'ORGFOUR', 'ORGBRAS', 'MAI', 'BLTDUR'] },
  BG: { market: 'Varna', code: 'VAR', stage: 'Delivered port', stageCode: 'DELPORT', products: ['BLTPAN', 'BLTFOUR', 'ORGFOUR', 'MAI'] },
  RO: { market: 'Constanta', code: 'CON', stage: 'Free on board', stageCode: 'FOB', products: ['BLTPAN', 'ORGFOUR', 'MAI'] },
  PL: { market: 'National Average', code: 'NAT', stage: 'Departure silo', stageCode: 'DEPSILO', products: ['BLTPAN', 'BLTFOUR', 'ORGFOUR', 'MAI'] },
  HU: { market: 'Budapest', code: 'BUD', stage: 'Departure silo', stageCode: 'DEPSILO', products: ['BLTPAN', 'BLTFOUR', 'ORGFOUR', 'MAI'] },
  ES: { market: 'Madrid', code: 'MAD', stage: 'Delivered to first customer', stageCode: 'DELFIRST', products: ['BLTPAN', 'ORGFOUR', 'MAI', 'BLTDUR'] },
  IT: { market: 'Bologna', code: 'BOL', stage: 'Delivered to first customer', stageCode: 'DELFIRST', products: ['BLTPAN', 'MAI', 'BLTDUR'] },
};

const OILSEED_PRODUCTS: ReadonlyArray<{ product: string; productType: string; base: number; states: string[] }> = [
  { product: 'Rapeseed', productType: 'N.A.', base: 380, states: ['DE', 'FR', 'PL', 'HU', 'RO', 'BG'] },
  { product: 'Sunflower seed', productType: 'Standard', base: 350, states: ['BG', 'RO', 'HU', 'FR', 'ES'] },
  { product: 'Soya beans', productType: 'N.A.', base: 360, states: ['IT', 'RO', 'HU'] },
];
const OILSEED_MARKETS: Record<string, { market: string; stage: string }> = {
  DE: { market: 'Hamburg', stage: 'DELPROC' },
  FR: { market: 'Rouen', stage: 'DELPROC' },
  PL: { market: 'National Average', stage: 'DEPSILO' },
  HU: { market: 'National Average', stage: 'FGATE' },
  RO: { market: 'Constanta', stage: 'FOB' },
  BG: { market: 'National Average', stage: 'FGATE' },
  ES: { market: 'Sevilla', stage: 'DELFIRST' },
  IT: { market: 'Bologna', stage: 'Not Defined' },
};

const PIG_CLASSES: ReadonlyArray<{ pigClass: string; unit: string; base: number; states: readonly string[] }> = [
  { pigClass: 'S', unit: '100KG', base: 165, states: SAMPLE_STATES },
  { pigClass: 'E', unit: '100KG', base: 158, states: SAMPLE_STATES },
  { pigClass: 'R', unit: '100KG', base: 150, states: ['DE', 'FR', 'PL', 'HU', 'RO', 'BG'] },
  { pigClass: 'Piglet', unit: 'Head', base: 48, states: ['DE', 'ES', 'PL', 'HU'] },
];

/** A planted move: from `begin` on, `series` is multiplied by `factor` (for `weeks` weeks, or for good). */
export interface PlantedMove {
  dataset: 'cereals_prices' | 'oilseeds_prices' | 'pigmeat_prices';
  /** Commodity id as the service builds it. */
  commodityId: string;
  state: string;
  /** Monday of the first week moved. */
  begin: string;
  factor: number;
  /** Weeks the move lasts; null: a lasting step. */
  weeks: number | null;
  why: string;
}

export const PLANTED_MOVES: readonly PlantedMove[] = [
  { dataset: 'cereals_prices', commodityId: 'cereals_prices:Feed maize', state: 'HU', begin: '2024-08-05', factor: 1.8, weeks: 1, why: 'drought scare, one week' },
  { dataset: 'cereals_prices', commodityId: 'cereals_prices:Breadmaking common wheat', state: 'RO', begin: '2022-03-07', factor: 1.45, weeks: null, why: 'export ban scare, lasting step' },
  { dataset: 'cereals_prices', commodityId: 'cereals_prices:Feed barley', state: 'BG', begin: '2026-10-12', factor: 0.6, weeks: 1, why: 'one-week collapse' },
  { dataset: 'oilseeds_prices', commodityId: 'oilseeds_prices:Rapeseed|N.A.', state: 'FR', begin: '2022-03-07', factor: 1.4, weeks: null, why: 'lasting step' },
  { dataset: 'oilseeds_prices', commodityId: 'oilseeds_prices:Sunflower seed|Standard', state: 'BG', begin: '2025-09-01', factor: 2.2, weeks: 1, why: 'one-week spike' },
  { dataset: 'pigmeat_prices', commodityId: 'pigmeat_prices:E', state: 'DE', begin: '2020-09-14', factor: 0.7, weeks: null, why: 'African swine fever found, lasting drop' },
  { dataset: 'pigmeat_prices', commodityId: 'pigmeat_prices:Piglet', state: 'PL', begin: '2026-06-01', factor: 2.0, weeks: 1, why: 'one-week spike' },
];

const DAY_MS = 86_400_000;

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every Monday from the first to the last sample week. */
export function sampleWeeks(first = SAMPLE_FIRST_WEEK, last = SAMPLE_LAST_WEEK): string[] {
  const weeks: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 7)) weeks.push(day);
  return weeks;
}

function portalDate(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** Marketing year (1 July to 30 June) of a week, as "2026/2027". */
export function marketingYear(monday: string): string {
  const sunday = addDays(monday, 6);
  const year = Number(sunday.slice(0, 4));
  const start = sunday.slice(5) >= '07-01' ? year : year - 1;
  return `${start}/${start + 1}`;
}

/** Week of the marketing year: week 1 is the week (Monday to Sunday) that holds 1 July. */
export function marketingYearWeek(monday: string): number {
  const start = Number(marketingYear(monday).slice(0, 4));
  const july1 = `${start}-07-01`;
  const weekday = (new Date(`${july1}T00:00:00Z`).getUTCDay() + 6) % 7;
  const firstMonday = addDays(july1, -weekday);
  return Math.floor((Date.parse(`${monday}T00:00:00Z`) - Date.parse(`${firstMonday}T00:00:00Z`)) / (7 * DAY_MS)) + 1;
}

/** ISO week number of a Monday (pigmeat counts weeks from January). */
export function isoWeek(monday: string): number {
  const thursday = new Date(Date.parse(`${addDays(monday, 3)}T00:00:00Z`));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return Math.floor((thursday.getTime() - yearStart) / (7 * DAY_MS)) + 1;
}

/** The 2021-2022 surge shared by all markets: up from 2021, peak mid-2022, easing through 2023. */
function marketLevel(monday: string): number {
  const t = (Date.parse(`${monday}T00:00:00Z`) - Date.parse('2016-01-04T00:00:00Z')) / (365.25 * DAY_MS);
  const surge = 0.55 * Math.exp(-((t - 6.45) ** 2) / (2 * 0.7 ** 2));
  return 1 + 0.06 * Math.sin((2 * Math.PI * t) / 3.1) + surge;
}

/** One weekly price path: level x a mean-reverting random walk, with the planted moves applied. */
function pricePath(key: string, base: number, weeks: readonly string[], moves: readonly PlantedMove[]): number[] {
  const random = new Random(key);
  let walk = 0;
  return weeks.map((monday) => {
    const [shock] = random.gaussianPair();
    walk = 0.93 * walk + 0.012 * shock;
    let factor = 1;
    for (const move of moves) {
      const end = move.weeks === null ? '9999-12-31' : addDays(move.begin, 7 * move.weeks - 1);
      if (monday >= move.begin && monday <= end) factor *= move.factor;
    }
    return base * marketLevel(monday) * Math.exp(walk) * factor;
  });
}

function euro(value: number, decimalComma = false): string {
  const text = value.toFixed(2);
  return `€${decimalComma ? text.replace('.', ',') : text}`;
}

/** Weeks without a price: a few per series, at fixed positions of its own stream. */
function missingWeeks(key: string, count: number): Set<number> {
  const random = new Random(`${key}:missing`);
  const missing = new Set<number>();
  while (missing.size < 3) missing.add(Math.floor(random.next() * count));
  return missing;
}

function stateName(code: string): string {
  return findMemberState(code)!.name;
}

function movesOf(dataset: PlantedMove['dataset'], commodityId: string, state: string): PlantedMove[] {
  return PLANTED_MOVES.filter((m) => m.dataset === dataset && m.commodityId === commodityId && m.state === state);
}

/** Markets per (state, product) at a scale: the sample's own (copy 0), then copies "Hamburg 2", ... */
function marketCopies(scale: number): number[] {
  if (!Number.isFinite(scale) || scale < 1) throw new RangeError(`sample scale must be a number >= 1 (got ${scale})`);
  return Array.from({ length: Math.round(scale) }, (_, copy) => copy);
}

/** A scaled copy's suffix for names, codes and random keys ('' for the sample's own market). */
const copySuffix = (copy: number, separator: string) => (copy === 0 ? '' : `${separator}${copy + 1}`);

function cerealSeries(scale = 1): Array<CerealSeries & { copy: number }> {
  const series: Array<CerealSeries & { copy: number }> = [];
  for (const state of SAMPLE_STATES) {
    const market = CEREAL_MARKETS[state];
    for (const product of CEREAL_PRODUCTS) {
      if (!market.products.includes(product.code)) continue;
      for (const copy of marketCopies(scale)) {
        series.push({
          state, productName: product.name, productCode: product.code, marketName: `${market.market}${copySuffix(copy, ' ')}`,
          marketCode: `${market.code}${copySuffix(copy, '')}`, stageName: market.stage, stageCode: market.stageCode, base: product.base, copy,
        });
      }
    }
  }
  return series;
}

type PortalRecord = Record<string, string | number | null>;

export function cerealRecords(weeks: readonly string[], onlyStates?: readonly string[], scale = 1): PortalRecord[] {
  const records: PortalRecord[] = [];
  const wanted = new Set(weeks);
  for (const s of cerealSeries(scale)) {
    if (onlyStates && !onlyStates.includes(s.state)) continue;
    const key = `cereals:${s.state}:${s.productCode}${copySuffix(s.copy, '#')}`;
    const moves = s.copy === 0 ? movesOf('cereals_prices', `cereals_prices:${s.productName}`, s.state) : [];
    const prices = pricePath(key, s.base, sampleWeeks(), moves);
    const all = sampleWeeks();
    const missing = missingWeeks(key, all.length);
    all.forEach((monday, index) => {
      if (!wanted.has(monday)) return;
      const week = marketingYearWeek(monday);
      records.push({
        memberStateCode: s.state,
        memberStateName: stateName(s.state),
        beginDate: portalDate(monday),
        endDate: portalDate(addDays(monday, 6)),
        referencePeriod: `Week ${week}`,
        weekNumber: week,
        price: missing.has(index) ? '' : euro(prices[index], s.state === 'RO'),
        unit: 'Tonne',
        productName: s.productName,
        productCode: s.productCode,
        marketName: s.marketName,
        marketCode: s.marketCode,
        stageName: s.stageName,
        stageCode: s.stageCode,
        marketingYear: marketingYear(monday),
      });
    });
  }
  return newestFirst(records);
}

export function oilseedRecords(weeks: readonly string[], scale = 1): PortalRecord[] {
  const records: PortalRecord[] = [];
  const all = sampleWeeks();
  const wanted = new Set(weeks);
  for (const product of OILSEED_PRODUCTS) {
    for (const state of product.states) {
     for (const copy of marketCopies(scale)) {
      const key = `oilseeds:${state}:${product.product}${copySuffix(copy, '#')}`;
      const commodity = `oilseeds_prices:${product.product}|${product.productType}`;
      const prices = pricePath(key, product.base, all, copy === 0 ? movesOf('oilseeds_prices', commodity, state) : []);
      const missing = missingWeeks(key, all.length);
      const market = { ...OILSEED_MARKETS[state], market: `${OILSEED_MARKETS[state].market}${copySuffix(copy, ' ')}` };
      all.forEach((monday, index) => {
        if (!wanted.has(monday)) return;
        // Bulgaria's records come without memberStateName and endDate, as in the portal's own answer.
        const bulgarian = state === 'BG';
        records.push({
          memberStateCode: state,
          ...(bulgarian ? {} : { memberStateName: stateName(state) }),
          beginDate: portalDate(monday),
          ...(bulgarian ? {} : { endDate: portalDate(addDays(monday, 6)) }),
          price: missing.has(index) ? null : euro(prices[index]),
          unit: state === 'HU' ? 'national currency/ton' : 'EUR/t',
          weekNumber: marketingYearWeek(monday),
          product: product.product,
          productType: product.productType,
          marketStage: market.stage,
          market: market.market,
          marketingYear: marketingYear(monday),
        });
      });
     }
    }
  }
  return newestFirst(records);
}

export function pigmeatRecords(weeks: readonly string[]): PortalRecord[] {
  const records: PortalRecord[] = [];
  const all = sampleWeeks();
  for (const pig of PIG_CLASSES) {
    for (const state of pig.states) {
      const key = `pigmeat:${state}:${pig.pigClass}`;
      const prices = pricePath(key, pig.base, all, movesOf('pigmeat_prices', `pigmeat_prices:${pig.pigClass}`, state));
      const missing = missingWeeks(key, all.length);
      all.forEach((monday, index) => {
        if (!weeks.includes(monday)) return;
        records.push({
          memberStateCode: state,
          memberStateName: stateName(state),
          beginDate: portalDate(monday),
          endDate: portalDate(addDays(monday, 6)),
          weekNumber: isoWeek(monday),
          pigClass: pig.pigClass,
          unit: pig.unit,
          price: missing.has(index) ? '' : euro(prices[index]),
        });
      });
    }
  }
  return newestFirst(records);
}

/** Newest week first; within a week the generator's order (stable sort). */
function newestFirst(records: PortalRecord[]): PortalRecord[] {
  const iso = (r: PortalRecord) => String(r.beginDate).split('/').reverse().join('-');
  return records.map((r, i) => ({ r, i, d: iso(r) })).sort((a, b) => (a.d === b.d ? a.i - b.i : a.d < b.d ? 1 : -1)).map((x) => x.r);
}

/** Writes the four sample files into `dir`. */
export interface AgrifoodSampleOptions {
  /** Markets per cereal and oilseed series (>= 1, default 1: the sample itself); pigmeat has no markets and stays. */
  scale?: number;
}

/** Writes the four sample files into `dir`, each in chunks (the text equals one JSON.stringify of the records). */
export async function generateAgrifoodSample(dir: string, options: AgrifoodSampleOptions = {}): Promise<string[]> {
  const scale = options.scale ?? 1;
  await mkdir(dir, { recursive: true });
  const weeks = sampleWeeks();
  const oldWeeks = weeks.filter((monday) => monday >= '2024-07-01' && monday <= '2025-06-23');
  const files: Array<[string, () => PortalRecord[]]> = [
    [SAMPLE_FILES.cerealsOld, () => cerealRecords(oldWeeks, ['FR'])],
    [SAMPLE_FILES.cereals, () => cerealRecords(weeks, undefined, scale)],
    [SAMPLE_FILES.oilseeds, () => oilseedRecords(weeks, scale)],
    [SAMPLE_FILES.pigmeat, () => pigmeatRecords(weeks)],
  ];
  for (const [name, records] of files) await writeJsonArray(join(dir, name), records());
  return files.map(([name]) => join(dir, name));
}

async function writeJsonArray(file: string, records: readonly PortalRecord[]): Promise<void> {
  const out = createWriteStream(file, 'utf8');
  const chunk = 5_000;
  for (let i = 0; i <= records.length; i += chunk) {
    const part = records.slice(i, i + chunk).map((r) => JSON.stringify(r)).join(',');
    const text = `${i === 0 ? '[' : part ? ',' : ''}${part}${i + chunk >= records.length ? ']' : ''}`;
    if (!out.write(text)) await once(out, 'drain');
    if (i + chunk >= records.length) break;
  }
  out.end();
  await finished(out);
}
