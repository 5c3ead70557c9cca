// Walker for the Ministry of Finance daily SEBRA report sheet (columns A-D), shared by the XLSX
// and the data.egov.bg JSON copies of the same sheet. Layout, checks and row handling are described
// in data/sources.md; every deviation is a MalformedSourceError naming the 1-based sheet row.
import { nameForCode } from './codes.ts';
import { centsFromValue, formatCents } from './money.ts';
import {
  MalformedSourceError,
  type Currency,
  type SebraDayReport,
  type SebraPaymentRow,
  type SebraSourceFormat,
} from './types.ts';

export type SheetCell = string | number | null;
export type SheetRow = ReadonlyArray<SheetCell>;

const TITLE = /ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ/i;
const TITLE_CURRENCY = /\(\s*в\s+(лева|евро)\s*\)/i;
const PERIOD = /Период\s*(?::\s*)?(\d{1,2})\.(\d{1,2})\.(\d{4})\s*[-\u2013\u2014]\s*(\d{1,2})\.(\d{1,2})\.(\d{4})/i;
const TOTAL = /^общо\s*:?$/i;
/** "01 xxxx" (code + masked paragraph), a bare "01", or "xxxx" for a line printed without a code. */
const CODED = /^(\d{1,2})(?:\s*[xх]{4})?$/i;
const UNCODED = /^[xх]{4}$/i;
/** The masked organisation id printed after the name: "Народно събрание ( 001******* )". */
const MASKED_ID = /\(\s*(\d{3}[\d*]{4,})\s*\)/;

function cellText(cell: SheetCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).replace(/[\u00a0\u202f]/g, ' ').trim();
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

interface Line {
  row: number;
  accountCode: string;
  description: string;
  count: number | null;
  cents: bigint;
}

interface Section {
  nameParts: string[];
  firstRow: number;
  lines: Line[];
}

type RowKind = 'blank' | 'total' | 'header' | 'code' | 'text';

function classify(row: SheetRow): RowKind {
  const [a, b, c, d] = [0, 1, 2, 3].map((i) => cellText(row[i]));
  if (a + b + c + d === '') return 'blank';
  if (TOTAL.test(a) || (a === '' && TOTAL.test(b))) return 'total';
  // Some sections close with a row holding only the amount (and perhaps the count).
  if (a === '' && b === '' && d !== '') return 'total';
  if (/^код$/i.test(a) && /^описание$/i.test(b)) return 'header';
  if (CODED.test(a) || UNCODED.test(a)) return 'code';
  return 'text';
}

function isoDate(day: string, month: string, year: string): string | null {
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** Parses "Период: DD.MM.YYYY - DD.MM.YYYY" from any cell of the row; undefined when the row has none. */
function periodOf(row: SheetRow, file: string, rowNumber: number): string | undefined {
  const cells = [2, 1, 3, 0].map((i) => cellText(row[i]));
  const withPeriod = cells.find((text) => /Период/i.test(text));
  if (withPeriod === undefined) return undefined;
  const match = PERIOD.exec(withPeriod);
  if (!match) throw new MalformedSourceError(file, rowNumber, `cannot read the period "${withPeriod}" (expected "Период: DD.MM.YYYY - DD.MM.YYYY")`);
  const start = isoDate(match[1], match[2], match[3]);
  const end = isoDate(match[4], match[5], match[6]);
  if (!start || !end) throw new MalformedSourceError(file, rowNumber, `period "${withPeriod}" is not a calendar date`);
  if (start !== end) {
    throw new MalformedSourceError(file, rowNumber, `period "${withPeriod}" spans ${start} to ${end}; a daily report covers one day`);
  }
  return start;
}

function amountCents(cell: SheetCell | undefined, file: string, rowNumber: number): bigint {
  const text = cellText(cell);
  if (text === '') throw new MalformedSourceError(file, rowNumber, 'no amount in column D');
  const cents = centsFromValue(typeof cell === 'number' ? cell : text);
  if (cents === null) throw new MalformedSourceError(file, rowNumber, `amount "${text}" in column D is not a number`);
  return cents;
}

function countOf(cell: SheetCell | undefined, file: string, rowNumber: number): number | null {
  const text = cellText(cell).replace(/\s/g, '');
  if (text === '') return null;
  const count = typeof cell === 'number' ? cell : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new MalformedSourceError(file, rowNumber, `payment count "${text}" in column C is not a whole number`);
  }
  return count;
}

function lineOf(row: SheetRow, file: string, rowNumber: number): Line {
  const codeCell = cellText(row[0]);
  const coded = CODED.exec(codeCell);
  const accountCode = coded ? coded[1].padStart(2, '0') : '';
  const description = collapse(cellText(row[1])) || (accountCode ? nameForCode(accountCode) : undefined);
  if (!description) throw new MalformedSourceError(file, rowNumber, `payment line "${codeCell}" has no description in column B`);
  return {
    row: rowNumber,
    accountCode,
    description,
    count: countOf(row[2], file, rowNumber),
    cents: amountCents(row[3], file, rowNumber),
  };
}

function sumCents(lines: Line[]): bigint {
  return lines.reduce((sum, line) => sum + line.cents, 0n);
}

function byCode(lines: Line[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const line of lines) sums.set(line.accountCode, (sums.get(line.accountCode) ?? 0n) + line.cents);
  return sums;
}

function codeLabel(code: string): string {
  return code === '' ? 'lines without a code' : `code ${code}`;
}

/** Reads one daily report sheet. `rows[i]` is sheet row i+1; blank rows may be present or already dropped. */
export function parseDailyReportRows(rows: ReadonlyArray<SheetRow>, file: string, format: SebraSourceFormat): SebraDayReport {
  let index = rows.findIndex((row) => classify(row) !== 'blank');
  if (index < 0) throw new MalformedSourceError(file, null, 'the sheet is empty');
  const titleRow = index + 1;
  const title = cellText(rows[index][0]);
  if (!TITLE.test(title)) {
    throw new MalformedSourceError(file, titleRow, `expected the title "ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в лева)" or "(в евро)" in column A, found "${title}"`);
  }
  const currencyMatch = TITLE_CURRENCY.exec(title);
  if (!currencyMatch) throw new MalformedSourceError(file, titleRow, `the title "${title}" does not say "(в лева)" or "(в евро)"`);
  const currency: Currency = currencyMatch[1].toLowerCase() === 'лева' ? 'BGN' : 'EUR';
  const paymentDate = periodOf(rows[index], file, titleRow);
  if (!paymentDate) throw new MalformedSourceError(file, titleRow, 'missing "Период: DD.MM.YYYY - DD.MM.YYYY" in the title row');

  const summary: Line[] = [];
  let summaryTotal: { cents: bigint; row: number } | null = null;
  const sections: Array<Section & { totalCents: bigint; totalRow: number }> = [];
  let open: Section | null = null;
  let inBody = false;

  for (index++; index < rows.length; index++) {
    const row = rows[index];
    const rowNumber = index + 1;
    const kind = classify(row);
    if (kind === 'blank') continue;
    if (kind === 'text' && cellText(row[3]) !== '') {
      throw new MalformedSourceError(file, rowNumber, `amount "${cellText(row[3])}" in column D on a row without a payment code in column A`);
    }

    if (!summaryTotal) {
      // Summary section: text-only rows are descriptive separators.
      if (kind === 'code') summary.push(lineOf(row, file, rowNumber));
      else if (kind === 'total') summaryTotal = { cents: amountCents(row[3], file, rowNumber), row: rowNumber };
      continue;
    }

    if (!open) {
      if (kind !== 'text') {
        throw new MalformedSourceError(file, rowNumber, 'expected an organisation row "Name ( 001******* )" to start a section');
      }
      open = { nameParts: [cellText(row[0])], firstRow: rowNumber, lines: [] };
      inBody = false;
      checkSectionPeriod(row, rowNumber);
      continue;
    }

    if (kind === 'text') {
      // Before the first line a text row continues a wrapped name; after it, it is a separator.
      if (!inBody) open.nameParts.push(cellText(row[0]));
      checkSectionPeriod(row, rowNumber);
    } else if (kind === 'header') {
      inBody = true;
    } else if (kind === 'code') {
      inBody = true;
      open.lines.push(lineOf(row, file, rowNumber));
    } else {
      const totalCents = amountCents(row[3], file, rowNumber);
      const sum = sumCents(open.lines);
      if (sum !== totalCents) {
        throw new MalformedSourceError(
          file,
          rowNumber,
          `sum of the section's rows ${formatCents(sum)} does not match its "Общо:" ${formatCents(totalCents)} (section "${collapse(open.nameParts.join(' '))}" from row ${open.firstRow})`,
        );
      }
      sections.push({ ...open, totalCents, totalRow: rowNumber });
      open = null;
    }
  }

  const lastRow = rows.length;
  if (!summaryTotal) throw new MalformedSourceError(file, lastRow, 'the summary section has no "Общо:" row');
  if (open) {
    throw new MalformedSourceError(file, lastRow, `section "${collapse(open.nameParts.join(' '))}" from row ${open.firstRow} has no "Общо:" row`);
  }

  const summarySum = sumCents(summary);
  if (summary.length > 0 && summarySum !== summaryTotal.cents) {
    throw new MalformedSourceError(file, summaryTotal.row, `sum of the summary rows ${formatCents(summarySum)} does not match the summary "Общо:" ${formatCents(summaryTotal.cents)}`);
  }
  const sectionsSum = sections.reduce((sum, section) => sum + section.totalCents, 0n);
  if (sectionsSum !== summaryTotal.cents) {
    throw new MalformedSourceError(file, summaryTotal.row, `sum of the organisation totals ${formatCents(sectionsSum)} does not match the summary "Общо:" ${formatCents(summaryTotal.cents)}`);
  }
  if (summary.length > 0) {
    const summaryByCode = byCode(summary);
    const sectionsByCode = byCode(sections.flatMap((section) => section.lines));
    for (const code of new Set([...summaryByCode.keys(), ...sectionsByCode.keys()])) {
      const inSummary = summaryByCode.get(code) ?? 0n;
      const inSections = sectionsByCode.get(code) ?? 0n;
      if (inSummary !== inSections) {
        throw new MalformedSourceError(file, summaryTotal.row, `${codeLabel(code)}: summary amount ${formatCents(inSummary)} does not match the sum over organisations ${formatCents(inSections)}`);
      }
    }
  }

  const rowsOut: SebraPaymentRow[] = sections.flatMap((section) => {
    const printed = collapse(section.nameParts.join(' '));
    const id = MASKED_ID.exec(printed);
    const programme = collapse(printed.replace(MASKED_ID, ' '));
    return section.lines.map((line) => ({
      paymentDate,
      currency,
      programme,
      programmeCode: id ? id[1] : null,
      accountCode: line.accountCode,
      accountDescription: line.description,
      amount: formatCents(line.cents),
      paymentCount: line.count,
    }));
  });
  const noPayments = summaryTotal.cents === 0n || rowsOut.length === 0;
  return {
    paymentDate,
    currency,
    status: noPayments ? 'NO_PAYMENTS' : 'HAS_PAYMENTS',
    format,
    rows: noPayments ? [] : rowsOut,
  };

  function checkSectionPeriod(row: SheetRow, rowNumber: number): void {
    const period = periodOf(row, file, rowNumber);
    if (period !== undefined && period !== paymentDate) {
      throw new MalformedSourceError(file, rowNumber, `section period ${period} differs from the report's ${paymentDate}`);
    }
  }
}
