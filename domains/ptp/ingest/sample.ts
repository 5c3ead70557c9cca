// Deterministic sample of the interior ministry's per-accident open data, one file per year
// 2023-2026 in the real published forms, with the real quirks:
//   ptp-2023.json  portal answer {"success":true,"data":[[headers],[row]...]}, every cell a string,
//                  dates "dd.mm.yyyy HH:MM", decimal commas, upper-case regions ("СОФИЯ") and some
//                  upper-case settlements ("ГР.ПЛОВДИВ");
//   ptp-2024.csv   semicolon CSV, ISO dates "yyyy-mm-dd HH:MM", decimal commas;
//   ptp-2025.json  a list of objects keyed by the headers, proper-case regions ("София", "Софийска");
//   ptp-2026.csv   comma CSV, ISO dates with seconds, decimal points, January to October.
// In every year about 1% of rows have latitude and longitude swapped and 2% have no coordinates.
// Accidents are placed around the real cities of the places table (Gaussian scatter, wider for
// larger cities), plus planted deadly hot spots (HOT_SPOTS) within 300 m of a fixed point.
// Each year draws from its own seeded PRNG, so the files are identical on every run.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { CITIES, oblastByCode, settlementLabel, type City } from '../../../reference/places.ts';
import { Random } from '../../../ingest/random.ts';

export const SAMPLE_YEARS = [2023, 2024, 2025, 2026] as const;
/** The last day the sample covers (inside the tests' clock, 2026-11-22). */
export const SAMPLE_LAST_DAY = '2026-10-31';
const CRASHES_PER_YEAR = 1500;

export interface HotSpot {
  name: string;
  /** The settlement the accidents are reported in (a city of the places table). */
  city: string;
  lat: number;
  lon: number;
  perYear: number;
  deathChance: number;
  crashType: string;
}

/** Planted deadly spots: real dangerous stretches, invented numbers. */
export const HOT_SPOTS: readonly HotSpot[] = [
  { name: 'Кресненско дефиле, път I-1', city: 'Кресна', lat: 41.7602, lon: 23.1614, perYear: 16, deathChance: 0.45, crashType: 'Челен удар' },
  { name: 'АМ „Тракия“ при Вакарел', city: 'Вакарел', lat: 42.5471, lon: 23.7244, perYear: 14, deathChance: 0.4, crashType: 'Блъскане между МПС' },
  { name: 'Околовръстен път, Младост', city: 'София', lat: 42.6318, lon: 23.3851, perYear: 20, deathChance: 0.3, crashType: 'Блъскане на пешеходец' },
  { name: 'Път Пловдив – Асеновград', city: 'Асеновград', lat: 42.0644, lon: 24.8322, perYear: 12, deathChance: 0.4, crashType: 'Челен удар' },
  { name: 'Аспарухов мост, Варна', city: 'Варна', lat: 43.1852, lon: 27.9063, perYear: 10, deathChance: 0.35, crashType: 'Блъскане в крайпътно съоръжение' },
];

const CRASH_TYPES: ReadonlyArray<[string, number]> = [
  ['Блъскане между МПС', 40],
  ['Блъскане в неподвижно МПС', 12],
  ['Блъскане на пешеходец', 14],
  ['Самокатастрофа', 10],
  ['Блъскане в крайпътно съоръжение', 8],
  ['Преобръщане', 5],
  ['Блъскане на велосипедист', 6],
  ['Челен удар', 4],
  ['Блъскане на животно', 1],
];
const ROAD_TYPES = ['Улица', 'Републикански път', 'Автомагистрала', 'Общински път'];

interface Crash {
  /** Local time, minutes precision. */
  year: number; month: number; day: number; hour: number; minute: number; second: number;
  city: City;
  crashType: string;
  inSettlement: boolean;
  lat: number | null;
  lon: number | null;
  swapped: boolean;
  died: number;
  injured: number;
  participants: number;
  roadType: string;
}

const KM_PER_DEG_LAT = 111.195;

function dayCount(year: number): number {
  return year === 2026 ? 304 : year % 4 === 0 ? 366 : 365; // 2026: to 31 October
}

function dateOf(year: number, dayOfYear: number): [number, number] {
  const date = new Date(Date.UTC(year, 0, 1 + dayOfYear));
  return [date.getUTCMonth() + 1, date.getUTCDate()];
}

function pickWeighted<T>(random: Random, items: ReadonlyArray<T>, weight: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let left = random.next() * total;
  for (const item of items) {
    left -= weight(item);
    if (left < 0) return item;
  }
  return items[items.length - 1];
}

function casualties(random: Random, deathChance: number): { died: number; injured: number } {
  const died = random.chance(deathChance) ? (random.chance(0.15) ? 2 : 1) : 0;
  const injured = random.chance(0.7) ? 1 + Math.floor(random.next() * random.next() * 4) : 0;
  return { died, injured };
}

function makeCrash(random: Random, year: number, city: City, spot: HotSpot | null): Crash {
  const [month, day] = dateOf(year, Math.floor(random.next() * dayCount(year)));
  // Daytime-heavy hours: the mean of two uniform draws centred on 14:00.
  const hour = Math.min(23, Math.max(0, Math.floor(14 + (random.next() + random.next() - 1) * 12)));
  const minute = Math.floor(random.next() * 60);
  let lat: number;
  let lon: number;
  let inSettlement: boolean;
  if (spot) {
    const [dx, dy] = random.gaussianPair();
    lat = spot.lat + (dy * 0.12) / KM_PER_DEG_LAT;
    lon = spot.lon + (dx * 0.12) / (KM_PER_DEG_LAT * Math.cos((spot.lat * Math.PI) / 180));
    inSettlement = false;
  } else {
    const sigmaKm = 0.8 + Math.sqrt(city.weight) / 9;
    const [dx, dy] = random.gaussianPair();
    lat = city.lat + (dy * sigmaKm) / KM_PER_DEG_LAT;
    lon = city.lon + (dx * sigmaKm) / (KM_PER_DEG_LAT * Math.cos((city.lat * Math.PI) / 180));
    inSettlement = Math.hypot(dx, dy) < 1.6;
  }
  const { died, injured } = casualties(random, spot ? spot.deathChance : inSettlement ? 0.02 : 0.07);
  const crashType = spot && random.chance(0.6) ? spot.crashType : pickWeighted(random, CRASH_TYPES, ([, w]) => w)[0];
  const missing = random.chance(0.02);
  return {
    year, month, day, hour, minute, second: 0, city, crashType, inSettlement,
    lat: missing ? null : lat,
    lon: missing ? null : lon,
    swapped: !missing && random.chance(0.01),
    died,
    injured,
    participants: 1 + (crashType === 'Самокатастрофа' || crashType === 'Преобръщане' ? 0 : 1) + (random.chance(0.15) ? 1 : 0),
    roadType: spot ? 'Републикански път' : inSettlement ? 'Улица' : ROAD_TYPES[Math.floor(random.next() * ROAD_TYPES.length)],
  };
}

/**
 * The year's accidents, oldest first (ties: generation order). A scale above 1 multiplies the ordinary
 * accidents (the planted hot spots keep their numbers); scale 1 is the sample itself.
 */
export function generateYear(year: number, scale = 1): Crash[] {
  if (!Number.isFinite(scale) || scale < 1) throw new RangeError(`sample scale must be a number >= 1 (got ${scale})`);
  const random = new Random(`ptp-${year}`);
  const crashes: Crash[] = [];
  const share = dayCount(year) / 365;
  for (let i = 0; i < Math.round(CRASHES_PER_YEAR * scale * share); i++) {
    crashes.push(makeCrash(random, year, pickWeighted(random, CITIES, (c) => c.weight), null));
  }
  for (const spot of HOT_SPOTS) {
    const city = CITIES.find((c) => c.name === spot.city)!;
    for (let i = 0; i < Math.round(spot.perYear * share); i++) crashes.push(makeCrash(random, year, city, spot));
  }
  const key = (c: Crash) => ((c.month * 32 + c.day) * 24 + c.hour) * 60 + c.minute;
  return crashes.map((c, i) => [c, i] as const).sort((a, b) => key(a[0]) - key(b[0]) || a[1] - b[1]).map(([c]) => c);
}

// ---------------------------------------------------------------------------------------------
// Writing the real forms

const HEADERS = [
  'OBJECTID', 'Дата и час на ПТП', 'Година', 'Област', 'Община', 'Населено място', 'Вид на ПТП', 'Място на ПТП',
  'Вид на пътя', 'Брой загинали', 'Брой ранени', 'Брой участници', 'Тежки ПТП', 'Географска ширина', 'Географска дължина',
];

interface Style {
  date: 'dotted' | 'iso' | 'iso-seconds';
  decimalComma: boolean;
  upperRegions: boolean;
  /** Share of settlements written in upper case without a space ("ГР.ПЛОВДИВ"). */
  upperSettlements: number;
}

const p2 = (n: number) => String(n).padStart(2, '0');

function cells(crash: Crash, index: number, style: Style, random: Random): string[] {
  const { year, month, day, hour, minute, second } = crash;
  const date =
    style.date === 'dotted' ? `${p2(day)}.${p2(month)}.${year} ${p2(hour)}:${p2(minute)}`
      : style.date === 'iso' ? `${year}-${p2(month)}-${p2(day)} ${p2(hour)}:${p2(minute)}`
        : `${year}-${p2(month)}-${p2(day)} ${p2(hour)}:${p2(minute)}:${p2(second)}`;
  const oblast = oblastByCode(crash.city.oblast);
  // The ministry writes the capital "СОФИЯ" and the district "СОФИЙСКА".
  const regionName = oblast.code === 'SOF' ? 'София' : oblast.name;
  const region = style.upperRegions ? regionName.toUpperCase() : regionName;
  let settlement = settlementLabel(crash.city);
  if (random.chance(style.upperSettlements)) settlement = settlement.toUpperCase().replace('. ', '.');
  const coordinate = (value: number | null) => {
    if (value === null) return '';
    const fixed = value.toFixed(6);
    return style.decimalComma ? fixed.replace('.', ',') : fixed;
  };
  const [lat, lon] = crash.swapped ? [crash.lon, crash.lat] : [crash.lat, crash.lon];
  return [
    String(index + 1), date, String(year), region, crash.city.municipality, settlement, crash.crashType,
    crash.inSettlement ? 'В населено място' : 'Извън населено място', crash.roadType, String(crash.died),
    String(crash.injured), String(crash.participants), crash.died + crash.injured > 0 ? '1' : '0', coordinate(lat), coordinate(lon),
  ];
}

const STYLES: Record<number, Style & { form: 'portal-json' | 'objects-json' | 'csv'; delimiter?: string }> = {
  2023: { form: 'portal-json', date: 'dotted', decimalComma: true, upperRegions: true, upperSettlements: 0.2 },
  2024: { form: 'csv', delimiter: ';', date: 'iso', decimalComma: true, upperRegions: true, upperSettlements: 0 },
  2025: { form: 'objects-json', date: 'dotted', decimalComma: false, upperRegions: false, upperSettlements: 0 },
  2026: { form: 'csv', delimiter: ',', date: 'iso-seconds', decimalComma: false, upperRegions: true, upperSettlements: 0 },
};

/** Rows per write: a large scale never holds a whole file as one string. */
const WRITE_CHUNK = 5_000;

/**
 * The file's text in pieces, exactly as one JSON.stringify / csv-stringify of all rows would write it
 * (portal JSON: the compact form; object JSON: one-space indentation, each object indented once more).
 */
function* fileChunks(rows: readonly string[][], style: (typeof STYLES)[number]): Generator<string> {
  const chunks = (from: number) => rows.slice(from, from + WRITE_CHUNK);
  if (style.form === 'csv') {
    yield stringify([HEADERS], { delimiter: style.delimiter, record_delimiter: '\r\n' });
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) yield stringify(chunks(i), { delimiter: style.delimiter, record_delimiter: '\r\n' });
  } else if (style.form === 'portal-json') {
    yield `{"success":true,"data":[${JSON.stringify(HEADERS)}`;
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) yield chunks(i).map((row) => `,${JSON.stringify(row)}`).join('');
    yield ']}';
  } else {
    if (rows.length === 0) {
      yield '[]';
      return;
    }
    yield '[';
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
      yield chunks(i)
        .map((row, j) => `${i + j === 0 ? '' : ','}\n ${JSON.stringify(Object.fromEntries(HEADERS.map((h, k) => [h, row[k]])), null, 1).replace(/\n/g, '\n ')}`)
        .join('');
    }
    yield '\n]';
  }
}

export interface PtpSampleOptions {
  /** Ordinary accidents per year multiplied by this (>= 1, default 1: the sample itself). */
  scale?: number;
}

/** Writes the sample files into dir, streamed in chunks; returns their paths. */
export async function generatePtpSample(dir: string, options: PtpSampleOptions = {}): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const year of SAMPLE_YEARS) {
    const style = STYLES[year];
    const random = new Random(`ptp-style-${year}`);
    const rows = generateYear(year, options.scale ?? 1).map((crash, i) => cells(crash, i, style, random));
    const file = join(dir, `ptp-${year}.${style.form === 'csv' ? 'csv' : 'json'}`);
    const out = createWriteStream(file, 'utf8');
    for (const chunk of fileChunks(rows, style)) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    files.push(file);
  }
  return files;
}
