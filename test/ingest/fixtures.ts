// Hand-made SEBRA daily reports for the ingest tests, written to temp dirs (never into data/).
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import type { SebraPaymentRow } from '../../domains/sebra/ingest/types.ts';

export type Cell = string | number | null;

export const projectRoot = resolve(import.meta.dirname, '../..');
/** Real extracts live next to the project, never inside it. */
export const realSebraDir = resolve(projectRoot, '../shared/data/real/sebra');

export const NAME_01 = 'Заплати, възнаграждения и други плащания за персонала - нетна сума за изплащане';
export const NAME_40 = 'Стипендии, пенсии, помощи и текущи трансфери за домакинства';
export const NAME_50 = 'Плащания за дълготрайни активи, основен ремонт и капиталови трансфери';
export const DELEGATED = 'Обща субсидия за делегирани от държавата дейности';

const createdDirs: string[] = [];
process.once('exit', () => {
  for (const dir of createdDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed when the test process exits. */
export async function tempDir(prefix = 'sebra-ingest-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  createdDirs.push(dir);
  return dir;
}

export async function writeXlsx(file: string, rows: Cell[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  await workbook.xlsx.writeFile(file);
  return file;
}

export async function writeJson(file: string, value: unknown): Promise<string> {
  await writeFile(file, JSON.stringify(value));
  return file;
}

/** 1-based sheet row of the first row whose column A equals text (after `from`). */
export function rowOf(rows: Cell[][], text: string, from = 0): number {
  const index = rows.findIndex((row, i) => i >= from && row[0] === text);
  if (index < 0) throw new Error(`fixture has no row "${text}"`);
  return index + 1;
}

/**
 * Current layout (column C empty), BGN, 15.03.2024: a separator row in the summary, a wrapped
 * organisation name, a section closed by an amount-only row, an uncoded municipal line, a negative line.
 */
export function currentLayoutRows(overrides: { period?: string; org1Total?: number; delegated?: number } = {}): Cell[][] {
  const period = overrides.period ?? 'Период: 15.03.2024 - 15.03.2024';
  const delegated = overrides.delegated ?? 100000;
  return [
    ['ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в лева)', null, period, null],
    [],
    ['01 xxxx', NAME_01, null, 1500.5],
    ['10 xxxx', 'Издръжка', null, 2345.67],
    ['98 xxxx', 'Други операции в БНБ', null, -50.25],
    ['Централен бюджет - трансфери за общини', null, null, null],
    ['    xxxx', DELEGATED, null, delegated],
    ['Общо:', null, null, 3795.92 + delegated],
    [],
    ['Народно събрание ( 001******* )', null, period, null],
    ['Код', 'Описание', null, 'Сума'],
    ['01 xxxx', NAME_01, null, 1500.5],
    ['10 xxxx', 'Издръжка', null, 1234.56],
    ['Общо:', null, null, overrides.org1Total ?? 2735.06],
    [],
    ['Министерство на регионалното развитие и', null, period, null],
    ['благоустройството ( 021******* )', null, null, null],
    ['Код', 'Описание', null, 'Сума'],
    ['10 xxxx', 'Издръжка', null, 1111.11],
    ['98 xxxx', 'Други операции в БНБ', null, -50.25],
    [null, null, null, 1060.86],
    [],
    ['Субсидии за ОБЩИНИ ( 444******* )', null, period, null],
    ['    xxxx', DELEGATED, null, delegated],
    ['Общо:', null, null, delegated],
  ];
}

export function currentLayoutExpected(delegated = '100000.00'): SebraPaymentRow[] {
  const base = { paymentDate: '2024-03-15', currency: 'BGN' as const, paymentCount: null };
  const ns = { ...base, programme: 'Народно събрание', programmeCode: '001*******' };
  const mrrb = { ...base, programme: 'Министерство на регионалното развитие и благоустройството', programmeCode: '021*******' };
  return [
    { ...ns, accountCode: '01', accountDescription: NAME_01, amount: '1500.50' },
    { ...ns, accountCode: '10', accountDescription: 'Издръжка', amount: '1234.56' },
    { ...mrrb, accountCode: '10', accountDescription: 'Издръжка', amount: '1111.11' },
    { ...mrrb, accountCode: '98', accountDescription: 'Други операции в БНБ', amount: '-50.25' },
    { ...base, programme: 'Субсидии за ОБЩИНИ', programmeCode: '444*******', accountCode: '', accountDescription: DELEGATED, amount: delegated },
  ];
}

/** Older layout (counts in column C, header "Код | Описание | Брой | Сума"), EUR, 03.02.2026. */
export function countLayoutRows(): Cell[][] {
  const period = 'Период: 03.02.2026 - 03.02.2026';
  const header: Cell[] = ['Код', 'Описание', 'Брой', 'Сума'];
  return [
    ['ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в евро)', null, period, null],
    header,
    ['40 xxxx', NAME_40, 1200, 5000000],
    ['50 xxxx', NAME_50, 3, 1234.56],
    ['Общо:', null, null, 5001234.56],
    [],
    ['НОИ - ДОО ( 055******* )', null, period, null],
    header,
    ['40 xxxx', NAME_40, 1200, 5000000],
    ['Общо:', null, null, 5000000],
    [],
    ['СТОЛИЧНА ОБЩИНА ( 422******* )', null, period, null],
    header,
    ['50 xxxx', NAME_50, 3, 1234.56],
    ['Общо:', null, null, 1234.56],
  ];
}

export function countLayoutExpected(): SebraPaymentRow[] {
  const base = { paymentDate: '2026-02-03', currency: 'EUR' as const };
  return [
    { ...base, programme: 'НОИ - ДОО', programmeCode: '055*******', accountCode: '40', accountDescription: NAME_40, amount: '5000000.00', paymentCount: 1200 },
    { ...base, programme: 'СТОЛИЧНА ОБЩИНА', programmeCode: '422*******', accountCode: '50', accountDescription: NAME_50, amount: '1234.56', paymentCount: 3 },
  ];
}

/** The count layout as data.egov.bg serves it: every cell a string, amounts with NBSP thousands and a decimal comma. */
export function countLayoutPortalJson(): { success: true; data: string[][] } {
  const text = (cell: Cell | undefined): string => {
    if (cell === null || cell === undefined) return '';
    if (typeof cell === 'string') return cell;
    if (Number.isInteger(cell) && cell < 10_000) return String(cell);
    const [whole, fraction] = cell.toFixed(2).split('.');
    // Thousands separated by NBSP (a fixture's own number: at most 16 digits).
    // eslint-disable-next-line regexp/no-super-linear-move -- the lookahead reads the digits after each place; 16 digits at most
    return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')},${fraction}`;
  };
  return { success: true, data: countLayoutRows().map((row) => [0, 1, 2, 3].map((i) => text(row[i]))) };
}

export function noPaymentsRows(date = '02.05.2025'): Cell[][] {
  return [
    ['ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в лева)', null, `Период: ${date} - ${date}`, null],
    ['Код', 'Описание', 'Брой', 'Сума'],
    ['Общо:', null, null, 0],
  ];
}
