// Deterministic sample of Ministry of Finance daily SEBRA reports (XLSX, the layout the parser reads),
// one file per Bulgarian working day. Every day draws from its own seeded PRNG, so a file is the same
// whatever range it is generated in, and the bytes are the same on every run and in every time zone.
// Planted in every calendar year (see ANOMALIES): a day with a far larger all-system total, a programme
// with one outsized payout day, a payment type whose monthly total jumps >= 2x, a day with far more
// payments than usual; plus two days without payments.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { nameForCode } from './codes.ts';
import { formatCents } from './money.ts';
import type { Currency } from './types.ts';
import { Random } from '../../../ingest/random.ts';

export const SAMPLE_FIRST_DAY = '2024-01-02';
export const SAMPLE_LAST_DAY = '2026-10-30';
const EURO_FROM = '2026-01-01';
const BGN_PER_EUR = 1.95583;
const SEED = 20240102;
/** Every workbook and zip entry carries this instant, so output never depends on the clock. */
const FIXED_INSTANT = new Date(Date.UTC(2024, 0, 1, 0, 0, 0));

/** Fixed-date public holidays (MM-DD); Easter and moved holidays are left out on purpose. */
const FIXED_HOLIDAYS = new Set(['01-01', '03-03', '05-01', '05-06', '05-24', '09-06', '09-22', '12-24', '12-25', '12-26']);

// ---------------------------------------------------------------------------------------------
// Randomness

/** Every stream of the SEBRA sample is keyed and mixed with the sample's fixed seed. */
const randomFor = (key: string): Random => new Random(key, SEED);

// ---------------------------------------------------------------------------------------------
// Organisations and what they pay

type Timing =
  | 'daily' // most working days
  | 'salary' // the organisation's pay day, between the 20th and the 25th
  | 'monthStart' // first working day of the month
  | 'occasional'; // now and then

interface Stream {
  /** Two-digit SEBRA code, or '' with a description for the uncoded central-budget lines. */
  code: string;
  description?: string;
  timing: Timing;
  /** Chance of a payment on a day the timing allows. */
  probability: number;
  /** Typical amount in BGN. */
  amount: number;
  /** Typical number of payments. */
  count: number;
  /** Share of days when the line is negative (code 98). */
  negativeShare?: number;
}

interface Organisation {
  system: string;
  name: string;
  payDay: number;
  streams: Stream[];
}

const daily = (code: string, amount: number, count: number, probability = 0.9): Stream => ({ code, timing: 'daily', probability, amount, count });
const sometimes = (code: string, amount: number, count: number, probability: number): Stream => ({ code, timing: 'occasional', probability, amount, count });
/** Net salaries (01), withheld taxes (02) and employer contributions (05) on the pay day. */
const payroll = (net: number, staff: number): Stream[] => [
  { code: '01', timing: 'salary', probability: 1, amount: net, count: Math.max(1, Math.round(staff / 40)) },
  { code: '02', timing: 'salary', probability: 1, amount: net * 0.36, count: Math.max(1, Math.round(staff / 200)) },
  { code: '05', timing: 'salary', probability: 1, amount: net * 0.3, count: Math.max(1, Math.round(staff / 300)) },
];
const bnbCash: Stream[] = [
  sometimes('91', 40_000, 3, 0.25),
  sometimes('93', 15_000, 2, 0.1),
  sometimes('90', 8_000, 4, 0.2),
];

const ORGANISATIONS: Organisation[] = [
  { system: '001', name: 'Народно събрание', payDay: 22, streams: [...payroll(2_400_000, 1_300), daily('10', 140_000, 25), ...bnbCash] },
  { system: '002', name: 'Администрация на президента', payDay: 21, streams: [...payroll(600_000, 300), daily('10', 30_000, 8, 0.7)] },
  { system: '003', name: 'Министерски съвет', payDay: 23, streams: [...payroll(1_900_000, 900), daily('10', 420_000, 60), sometimes('50', 900_000, 3, 0.15), sometimes('90', 40_000, 30, 0.3)] },
  { system: '004', name: 'Конституционен съд', payDay: 21, streams: [...payroll(300_000, 80), daily('10', 12_000, 4, 0.5)] },
  { system: '005', name: 'Сметна палата', payDay: 24, streams: [...payroll(1_100_000, 450), daily('10', 35_000, 9, 0.7)] },
  { system: '006', name: 'Висш съдебен съвет', payDay: 25, streams: [...payroll(28_000_000, 11_000), daily('10', 900_000, 180), sometimes('03', 250_000, 40, 0.2)] },
  {
    system: '010',
    name: 'Министерство на финансите',
    payDay: 24,
    streams: [
      ...payroll(6_500_000, 7_000),
      daily('10', 600_000, 90),
      daily('60', 9_000_000, 12, 0.8),
      sometimes('20', 45_000_000, 2, 0.05),
      sometimes('98', 2_500_000, 2, 0.3),
      sometimes('95', 300_000, 3, 0.1),
      sometimes('97', 5_000_000, 1, 0.04),
    ].map((stream) => (stream.code === '98' ? { ...stream, negativeShare: 0.35 } : stream)),
  },
  { system: '011', name: 'Министерство на външните работи', payDay: 20, streams: [...payroll(3_100_000, 1_400), daily('10', 380_000, 45), sometimes('92', 120_000, 6, 0.3), sometimes('93', 260_000, 8, 0.3)] },
  { system: '012', name: 'Министерство на отбраната', payDay: 25, streams: [...payroll(52_000_000, 30_000), daily('10', 3_200_000, 420), sometimes('50', 14_000_000, 6, 0.2), sometimes('40', 700_000, 120, 0.3)] },
  { system: '013', name: 'Министерство на вътрешните работи', payDay: 22, streams: [...payroll(78_000_000, 50_000), daily('10', 2_600_000, 520), sometimes('50', 4_000_000, 5, 0.15), ...bnbCash] },
  { system: '014', name: 'Министерство на правосъдието', payDay: 23, streams: [...payroll(9_500_000, 5_200), daily('10', 520_000, 110)] },
  { system: '015', name: 'Министерство на труда и социалната политика', payDay: 21, streams: [...payroll(5_200_000, 4_500), daily('10', 260_000, 70), daily('40', 11_000_000, 1_100, 0.95), sometimes('60', 3_500_000, 6, 0.2)] },
  { system: '016', name: 'Министерство на здравеопазването', payDay: 24, streams: [...payroll(4_800_000, 3_800), daily('10', 1_400_000, 240), daily('60', 2_200_000, 15, 0.5), sometimes('50', 2_500_000, 4, 0.12)] },
  { system: '017', name: 'Министерство на образованието и науката', payDay: 22, streams: [...payroll(3_600_000, 2_200), daily('10', 450_000, 90), daily('60', 6_500_000, 40, 0.6)] },
  { system: '018', name: 'Министерство на културата', payDay: 23, streams: [...payroll(2_900_000, 3_100), daily('10', 380_000, 95), sometimes('50', 600_000, 3, 0.15), sometimes('30', 400_000, 5, 0.2)] },
  { system: '019', name: 'Министерство на околната среда и водите', payDay: 24, streams: [...payroll(2_600_000, 2_000), daily('10', 260_000, 60), sometimes('50', 1_800_000, 3, 0.12)] },
  { system: '020', name: 'Министерство на икономиката и индустрията', payDay: 20, streams: [...payroll(1_300_000, 700), daily('10', 160_000, 30, 0.8), sometimes('30', 2_000_000, 3, 0.1)] },
  { system: '021', name: 'Министерство на регионалното развитие и благоустройството', payDay: 25, streams: [...payroll(2_100_000, 1_500), daily('10', 300_000, 55), daily('50', 9_000_000, 18, 0.5), sometimes('60', 4_000_000, 5, 0.2)] },
  { system: '022', name: 'Министерство на земеделието и храните', payDay: 21, streams: [...payroll(4_100_000, 4_000), daily('10', 420_000, 90), sometimes('30', 3_200_000, 40, 0.3)] },
  { system: '023', name: 'Министерство на транспорта и съобщенията', payDay: 22, streams: [...payroll(1_200_000, 900), daily('10', 220_000, 40), sometimes('30', 12_000_000, 4, 0.25), sometimes('50', 6_000_000, 5, 0.2)] },
  { system: '024', name: 'Министерство на енергетиката', payDay: 23, streams: [...payroll(500_000, 250), daily('10', 60_000, 12, 0.6), sometimes('30', 8_000_000, 2, 0.08)] },
  { system: '025', name: 'Министерство на младежта и спорта', payDay: 24, streams: [...payroll(900_000, 600), daily('10', 240_000, 50), sometimes('50', 1_200_000, 3, 0.1), sometimes('30', 500_000, 10, 0.2)] },
  { system: '041', name: 'Национален статистически институт', payDay: 20, streams: [...payroll(2_300_000, 1_500), daily('10', 90_000, 30, 0.8)] },
  { system: '047', name: 'Комисия за финансов надзор', payDay: 22, streams: [...payroll(1_000_000, 350), daily('10', 45_000, 12, 0.7)] },
  { system: '053', name: 'ДА "Държавен резерв и военновременни запаси"', payDay: 21, streams: [...payroll(700_000, 500), daily('10', 180_000, 20, 0.7), sometimes('50', 3_500_000, 2, 0.08)] },
  { system: '055', name: 'НОИ - ДОО', payDay: 23, streams: [...payroll(6_000_000, 4_000), daily('10', 500_000, 90), daily('40', 95_000_000, 1_400, 1), sometimes('60', 8_000_000, 3, 0.2)] },
  { system: '056', name: 'НЗОК', payDay: 24, streams: [...payroll(1_400_000, 900), daily('10', 34_000_000, 1_500, 1), daily('40', 2_500_000, 380, 0.8)] },
  { system: '061', name: 'Българска национална телевизия', payDay: 25, streams: [...payroll(2_500_000, 2_000), daily('10', 330_000, 60)] },
  { system: '062', name: 'Българско национално радио', payDay: 25, streams: [...payroll(1_600_000, 1_400), daily('10', 160_000, 40)] },
  { system: '084', name: 'ДЪРЖАВЕН ФОНД ЗЕМЕДЕЛИЕ', payDay: 22, streams: [...payroll(1_800_000, 1_700), daily('10', 140_000, 30), daily('30', 7_500_000, 900, 0.6)] },
  { system: '122', name: 'ДФ Земеделие-Разплащателна агенция', payDay: 22, streams: [daily('30', 6_000_000, 1_300, 0.7), sometimes('50', 4_000_000, 300, 0.3)] },
  { system: '124', name: 'Фонд "Сигурност на електроенергийната система"', payDay: 21, streams: [sometimes('30', 22_000_000, 12, 0.35)] },
  { system: '422', name: 'СТОЛИЧНА ОБЩИНА', payDay: 24, streams: [...payroll(14_000_000, 16_000), daily('10', 3_000_000, 650), daily('50', 2_200_000, 25, 0.6), sometimes('40', 600_000, 150, 0.4)] },
  {
    system: '444',
    name: 'Субсидии за ОБЩИНИ',
    payDay: 1,
    streams: [
      { code: '', description: 'Обща субсидия за делегирани от държавата дейности', timing: 'monthStart', probability: 1, amount: 190_000_000, count: 265 },
      { code: '', description: 'Трансфери за местни дейности', timing: 'monthStart', probability: 1, amount: 22_000_000, count: 265 },
      { code: '', description: 'Целева субсидия за капиталови разходи', timing: 'occasional', probability: 0.08, amount: 14_000_000, count: 120 },
    ],
  },
  { system: '666', name: 'Централен бюджет - безлихвени заеми', payDay: 1, streams: [{ code: '', description: 'Временни безлихвени заеми за общини', timing: 'occasional', probability: 0.06, amount: 1_500_000, count: 3 }] },
  { system: '745', name: 'Учителски пенсионен фонд', payDay: 20, streams: [daily('40', 1_600_000, 240, 0.5)] },
  { system: '801', name: 'СУ Климент Охридски', payDay: 23, streams: [...payroll(5_000_000, 3_300), daily('10', 300_000, 70), sometimes('40', 350_000, 400, 0.15)] },
  { system: '812', name: 'Технически университет - София', payDay: 24, streams: [...payroll(3_000_000, 2_100), daily('10', 210_000, 45)] },
  { system: '831', name: 'Медицински университет - София', payDay: 22, streams: [...payroll(3_100_000, 2_300), daily('10', 230_000, 50)] },
  { system: '890', name: 'Българска академия на науките', payDay: 21, streams: [...payroll(6_000_000, 5_500), daily('10', 520_000, 150), sometimes('50', 900_000, 4, 0.1)] },
  { system: '983', name: 'НФ - МВУ', payDay: 1, streams: [daily('60', 8_500_000, 140, 0.8)] },
  { system: '987', name: 'НФ-средства от ЕС', payDay: 1, streams: [daily('60', 7_000_000, 110, 0.8), sometimes('50', 3_000_000, 20, 0.2)] },
];

// ---------------------------------------------------------------------------------------------
// Planted anomalies (dates are working days of the sample)

interface Anomalies {
  /** (a) all-system total far above normal: a large debt repayment by the Ministry of Finance (BGN). */
  totalSpike: Map<string, { system: string; code: string; amount: number }>;
  /** (b) one programme pays many times its usual amount on one day (BGN). */
  programmeSpike: Map<string, { system: string; code: string; amount: number }>;
  /** (c) a payment type's amounts multiplied for a whole month: `${yyyy-mm} ${code}` -> factor. */
  monthFactor: Map<string, number>;
  /** (d) days when every organisation makes several times its usual number of payments. */
  countSpike: Map<string, number>;
  /** Days reported with a zero total. */
  noPayments: Set<string>;
}

export const ANOMALIES: Anomalies = {
  totalSpike: new Map([
    ['2024-06-27', { system: '010', code: '80', amount: 3_200_000_000 }],
    ['2025-03-27', { system: '010', code: '80', amount: 2_900_000_000 }],
    ['2026-04-28', { system: '010', code: '80', amount: 3_400_000_000 }],
  ]),
  programmeSpike: new Map([
    ['2024-09-12', { system: '018', code: '50', amount: 64_000_000 }],
    ['2025-10-15', { system: '018', code: '50', amount: 58_000_000 }],
    ['2026-07-16', { system: '018', code: '50', amount: 70_000_000 }],
  ]),
  monthFactor: new Map([
    ['2024-12 50', 3.5],
    ['2025-12 50', 3.5],
    ['2024-05 10', 3],
    ['2025-09 10', 3],
    ['2026-09 10', 3],
  ]),
  countSpike: new Map([
    ['2024-03-14', 5],
    ['2025-11-13', 5],
    ['2026-02-12', 5],
  ]),
  noPayments: new Set(['2024-05-02', '2025-05-02']),
};

// ---------------------------------------------------------------------------------------------
// Calendar

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function isWorkingDay(isoDate: string): boolean {
  const weekday = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !FIXED_HOLIDAYS.has(isoDate.slice(5));
}

export function workingDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) if (isWorkingDay(day)) days.push(day);
  return days;
}

/** First working day on or after the given day of the day's month (pay days that fall on a weekend move on). */
function firstWorkingDayFrom(month: string, dayOfMonth: number): string {
  let day = `${month}-${String(dayOfMonth).padStart(2, '0')}`;
  while (!isWorkingDay(day)) day = addDays(day, 1);
  return day;
}

// ---------------------------------------------------------------------------------------------
// One day's report

export interface SampleLine {
  code: string;
  description: string;
  count: number;
  /** Amount in the report's currency, integer cents. */
  cents: number;
}

export interface SampleSection {
  name: string;
  maskedId: string;
  lines: SampleLine[];
}

export interface SampleDay {
  date: string;
  currency: Currency;
  sections: SampleSection[];
}

function timingAllows(stream: Stream, date: string, payDay: number): boolean {
  const month = date.slice(0, 7);
  switch (stream.timing) {
    case 'daily':
    case 'occasional':
      return true;
    case 'salary':
      return date === firstWorkingDayFrom(month, payDay);
    case 'monthStart':
      return date === firstWorkingDayFrom(month, 1);
  }
}

/**
 * The organisations of a report at the given scale: the first ORGANISATIONS.length are the sample's
 * own; a scale above 1 adds copies (`copy` 1, 2, ...) of the same templates with their own masked ids
 * ("001" + four-digit copy number + "***"), names ("Народно събрание (2)") and random draws, until there
 * are round(ORGANISATIONS.length * scale) of them.
 */
function scaledOrganisations(scale: number): Array<{ organisation: Organisation; copy: number }> {
  const total = Math.max(ORGANISATIONS.length, Math.round(ORGANISATIONS.length * scale));
  const list: Array<{ organisation: Organisation; copy: number }> = [];
  for (let i = 0; i < total; i++) list.push({ organisation: ORGANISATIONS[i % ORGANISATIONS.length], copy: Math.floor(i / ORGANISATIONS.length) });
  return list;
}

function checkScale(scale: number): void {
  if (!Number.isFinite(scale) || scale < 1) throw new RangeError(`sample scale must be a number >= 1 (got ${scale})`);
}

/**
 * The content of one day's report (deterministic in the date and the scale). At scale 1 the
 * sample's own organisations; above 1, copies of them that draw from their own seeded PRNG (so the
 * sample's organisations keep the same numbers at every scale) and carry none of the planted anomalies.
 */
export function sampleDay(date: string, scale = 1): SampleDay {
  checkScale(scale);
  const currency: Currency = date < EURO_FROM ? 'BGN' : 'EUR';
  if (ANOMALIES.noPayments.has(date)) return { date, currency, sections: [] };
  const random = randomFor(date);
  const copyRandom = randomFor(`${date} copies`);
  const toCents = (bgn: number) => Math.round((currency === 'BGN' ? bgn : bgn / BGN_PER_EUR) * 100);
  const countFactor = ANOMALIES.countSpike.get(date) ?? 1;
  const sections: SampleSection[] = [];
  for (const { organisation, copy } of scaledOrganisations(scale)) {
    if (copy > 0) {
      const lines = copyLines(organisation, date, copyRandom, countFactor, toCents);
      if (lines.length > 0) {
        const maskedId = `${organisation.system}${String(copy).padStart(4, '0')}***`;
        sections.push({ name: `${organisation.name} (${copy + 1})`, maskedId, lines: mergeByLine(lines) });
      }
      continue;
    }
    const monthFactor = (code: string) => ANOMALIES.monthFactor.get(`${date.slice(0, 7)} ${code}`) ?? 1;
    const lines = streamLines(organisation, date, random, countFactor, toCents, monthFactor);
    for (const planted of [ANOMALIES.totalSpike.get(date), ANOMALIES.programmeSpike.get(date)]) {
      if (planted?.system !== organisation.system) continue;
      lines.push({ code: planted.code, description: nameForCode(planted.code)!, count: 1, cents: toCents(planted.amount) });
    }
    if (lines.length === 0) continue;
    sections.push({ name: organisation.name, maskedId: `${organisation.system}*******`, lines: mergeByLine(lines) });
  }
  return { date, currency, sections };
}

/** A scaled copy's lines: the template's streams with the copy's own draws, no planted anomalies. */
function copyLines(organisation: Organisation, date: string, random: Random, countFactor: number, toCents: (bgn: number) => number): SampleLine[] {
  return streamLines(organisation, date, random, countFactor, toCents, () => 1);
}

/**
 * The day's line of every stream that pays. Every stream draws every day, so one stream's schedule
 * never shifts another's numbers; `monthFactor` plants the monthly expense spikes.
 */
function streamLines(
  organisation: Organisation, date: string, random: Random, countFactor: number, toCents: (bgn: number) => number,
  monthFactor: (code: string) => number,
): SampleLine[] {
  const lines: SampleLine[] = [];
  for (const stream of organisation.streams) {
    const pays = random.chance(stream.probability);
    const amountNoise = random.noise(0.35);
    const countNoise = random.noise(0.3);
    const negative = random.chance(stream.negativeShare ?? 0);
    if (!pays || !timingAllows(stream, date, organisation.payDay)) continue;
    const bgn = stream.amount * amountNoise * monthFactor(stream.code) * (negative ? -0.4 : 1);
    const count = Math.min(2_000, Math.max(1, Math.round(stream.count * countNoise * countFactor)));
    lines.push({ code: stream.code, description: stream.description ?? nameForCode(stream.code)!, count, cents: toCents(bgn) });
  }
  return lines;
}

/** One line per code (or uncoded description), coded lines first in code order. */
function mergeByLine(lines: SampleLine[]): SampleLine[] {
  const merged = new Map<string, SampleLine>();
  for (const line of lines) {
    const key = `${line.code}|${line.description}`;
    const seen = merged.get(key);
    if (seen) merged.set(key, { ...seen, count: seen.count + line.count, cents: seen.cents + line.cents });
    else merged.set(key, { ...line });
  }
  return [...merged.values()].sort((a, b) => (a.code === '' ? 1 : 0) - (b.code === '' ? 1 : 0) || a.code.localeCompare(b.code));
}

// ---------------------------------------------------------------------------------------------
// Sheet layout

type Cell = string | number | null;

function ddmmyyyy(isoDate: string, separator: string): string {
  return [isoDate.slice(8, 10), isoDate.slice(5, 7), isoDate.slice(0, 4)].join(separator);
}

function codeCell(code: string): string {
  return code === '' ? '    xxxx' : `${code} xxxx`;
}

/** Splits a long organisation name over two rows, the way the published sheets wrap it. */
function nameRows(section: SampleSection): string[] {
  const printed = `${section.name} ( ${section.maskedId} )`;
  if (section.name.length <= 40) return [printed];
  const cut = section.name.lastIndexOf(' ', 36);
  return [section.name.slice(0, cut), `${section.name.slice(cut + 1)} ( ${section.maskedId} )`];
}

const HEADER: Cell[] = ['Код', 'Описание', 'Брой', 'Сума'];

/** The sheet's rows, exactly as the Ministry of Finance lays them out (counts in column C). */
export function sampleSheetRows(day: SampleDay): Cell[][] {
  const period = `Период: ${ddmmyyyy(day.date, '.')} - ${ddmmyyyy(day.date, '.')}`;
  const money = (cents: number) => cents / 100;
  const rows: Cell[][] = [[`ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (${day.currency === 'BGN' ? 'в лева' : 'в евро'})`, null, period, null], []];

  const summary = mergeByLine(day.sections.flatMap((section) => section.lines));
  rows.push(HEADER);
  let separated = false;
  for (const line of summary) {
    if (line.code === '' && !separated) {
      rows.push(['Централен бюджет - трансфери за общини', null, null, null]);
      separated = true;
    }
    rows.push([codeCell(line.code), line.description, line.count, money(line.cents)]);
  }
  rows.push(['Общо:', null, null, money(summary.reduce((sum, line) => sum + line.cents, 0))], []);

  for (const section of day.sections) {
    const [first, second] = nameRows(section);
    rows.push([first, null, period, null]);
    if (second) rows.push([second, null, null, null]);
    rows.push(HEADER);
    for (const line of section.lines) rows.push([codeCell(line.code), line.description, line.count, money(line.cents)]);
    rows.push(['Общо:', null, null, money(section.lines.reduce((sum, line) => sum + line.cents, 0))], []);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// XLSX bytes

async function workbookBytes(rows: Cell[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'СЕБРА';
  workbook.lastModifiedBy = 'СЕБРА';
  workbook.created = FIXED_INSTANT;
  workbook.modified = FIXED_INSTANT;
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.columns = [{ width: 44 }, { width: 70 }, { width: 30 }, { width: 18, style: { numFmt: '#,##0.00' } }];
  for (const row of rows) sheet.addRow(row);
  // exceljs stamps zip entries with the current time: write uncompressed, then re-zip with a fixed date.
  const stored = await workbook.xlsx.writeBuffer({ zip: { compression: 'STORE' } });
  return rezipWithFixedDate(Buffer.from(stored as ArrayBuffer));
}

/** Same entries in the same order, each dated FIXED_INSTANT (JSZip writes DOS dates from UTC fields). */
export async function rezipWithFixedDate(bytes: Buffer): Promise<Buffer> {
  const source = await JSZip.loadAsync(bytes);
  const target = new JSZip();
  for (const entry of Object.values(source.files)) {
    if (entry.dir) continue;
    target.file(entry.name, await entry.async('uint8array'), { date: FIXED_INSTANT, createFolders: false });
  }
  return target.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 }, platform: 'DOS' });
}

/** The sheet as the open-data portal serves it: every cell text, empty cells "". */
function portalJson(rows: Cell[][]): string {
  const text = (cell: Cell) => (cell === null ? '' : typeof cell === 'number' ? String(cell) : cell);
  return JSON.stringify({ success: true, data: rows.map((row) => row.map(text)) });
}

export function sampleFileName(isoDate: string): string {
  return `SEBRA-${ddmmyyyy(isoDate, '')}.xlsx`;
}

export interface SampleOptions {
  from?: string;
  to?: string;
  /** Organisations per report multiplied by this (>= 1, default 1: the sample itself). */
  scale?: number;
  /**
   * 'xlsx' (default): the Ministry of Finance workbook; 'portal-json': the same sheet as data.egov.bg
   * serves it ({"success":true,"data":[[cell text...]...]}), far cheaper to write and read at scale.
   */
  format?: 'xlsx' | 'portal-json';
  onProgress?: (done: number, total: number) => void;
}

/** Writes one XLSX per working day into dir; returns the files written, in date order. */
export async function generateSebraSample(dir: string, options: SampleOptions = {}): Promise<string[]> {
  const scale = options.scale ?? 1;
  checkScale(scale);
  const days = workingDays(options.from ?? SAMPLE_FIRST_DAY, options.to ?? SAMPLE_LAST_DAY);
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const date of days) {
    const rows = sampleSheetRows(sampleDay(date, scale));
    const file = join(dir, options.format === 'portal-json' ? sampleFileName(date).replace(/\.xlsx$/, '.json') : sampleFileName(date));
    await writeFile(file, options.format === 'portal-json' ? portalJson(rows) : await workbookBytes(rows));
    files.push(file);
    options.onProgress?.(files.length, days.length);
  }
  return files;
}

/** Day total in cents, for checks and calibration. */
export function sampleDayTotal(day: SampleDay): string {
  return formatCents(BigInt(day.sections.reduce((sum, section) => sum + section.lines.reduce((s, line) => s + line.cents, 0), 0)));
}
