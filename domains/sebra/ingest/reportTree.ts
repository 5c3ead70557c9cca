// The older daily report turned into a tree (yurukov/Bulgarian-Budget-Spending-Transformation report1.json):
// {"name": ..., "children": [{"name": <organisation>, "children": [{"name": <payment type>, "count": n, "amount": x}]}]}.
// The tree carries no date and no codes: the date comes from the caller or the file name, codes from the names.
// "Row" in error messages is the 1-based position of a payment line in file order.
import { basename } from 'node:path';
import { codeForDescription } from './codes.ts';
import { centsFromValue, formatCents } from './money.ts';
import { readJson } from './readJson.ts';
import { MalformedSourceError, type Currency, type SebraDayReport, type SebraPaymentRow } from './types.ts';

export interface ReportTreeOptions {
  /** ISO date of the report; when absent it is read from the file name. */
  paymentDate?: string;
  /** Currency; when absent BGN before 2026-01-01 and EUR from then on. */
  currency?: Currency;
}

/** The euro replaced the lev on 1 January 2026. */
export function currencyOnDate(isoDate: string): Currency {
  return isoDate < '2026-01-01' ? 'BGN' : 'EUR';
}

export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** A date written in a file name as YYYY-MM-DD, DD.MM.YYYY or DDMMYYYY; undefined when there is none. */
export function dateFromFileName(file: string): string | undefined {
  const name = basename(file);
  const candidates: string[] = [];
  for (const m of name.matchAll(/(\d{4})-(\d{2})-(\d{2})/g)) candidates.push(`${m[1]}-${m[2]}-${m[3]}`);
  for (const m of name.matchAll(/(\d{2})\.(\d{2})\.(\d{4})/g)) candidates.push(`${m[3]}-${m[2]}-${m[1]}`);
  for (const m of name.matchAll(/(?<!\d)(\d{2})(\d{2})(\d{4})(?!\d)/g)) candidates.push(`${m[3]}-${m[2]}-${m[1]}`);
  return candidates.find(isIsoDate);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds the report from an already parsed JSON value. */
export function reportFromTree(value: unknown, file: string, options: ReportTreeOptions = {}): SebraDayReport {
  const paymentDate = options.paymentDate ?? dateFromFileName(file);
  if (paymentDate === undefined) throw new MalformedSourceError(file, null, 'no payment date: pass --date');
  if (!isIsoDate(paymentDate)) throw new MalformedSourceError(file, null, `payment date "${paymentDate}" is not YYYY-MM-DD`);
  const currency = options.currency ?? currencyOnDate(paymentDate);
  if (!isRecord(value) || !Array.isArray(value.children)) {
    throw new MalformedSourceError(file, null, 'expected {"name": ..., "children": [organisations]}');
  }

  const rows: SebraPaymentRow[] = [];
  let line = 0;
  let total = 0n;
  value.children.forEach((organisation: unknown, orgIndex) => {
    const where = `organisation ${orgIndex + 1}`;
    if (!isRecord(organisation) || typeof organisation.name !== 'string' || organisation.name.trim() === '') {
      throw new MalformedSourceError(file, line + 1, `${where} has no "name"`);
    }
    if (!Array.isArray(organisation.children)) {
      throw new MalformedSourceError(file, line + 1, `${where} ("${organisation.name}") has no "children" array`);
    }
    const programme = organisation.name.replace(/\s+/g, ' ').trim();
    for (const item of organisation.children as unknown[]) {
      line++;
      if (!isRecord(item) || typeof item.name !== 'string' || item.name.trim() === '') {
        throw new MalformedSourceError(file, line, `payment line of ${where} ("${programme}") has no "name"`);
      }
      const cents = centsFromValue(item.amount);
      if (cents === null) {
        throw new MalformedSourceError(file, line, `amount ${JSON.stringify(item.amount)} of "${item.name}" (${where}) is not a number`);
      }
      const count = item.count;
      if (count !== undefined && count !== null && !(Number.isSafeInteger(count) && (count as number) >= 0)) {
        throw new MalformedSourceError(file, line, `count ${JSON.stringify(count)} of "${item.name}" (${where}) is not a whole number`);
      }
      const description = item.name.replace(/\s+/g, ' ').trim();
      total += cents;
      rows.push({
        paymentDate,
        currency,
        programme,
        programmeCode: null,
        accountCode: codeForDescription(description),
        accountDescription: description,
        amount: formatCents(cents),
        paymentCount: typeof count === 'number' ? count : null,
      });
    }
  });
  const noPayments = rows.length === 0 || total === 0n;
  return { paymentDate, currency, status: noPayments ? 'NO_PAYMENTS' : 'HAS_PAYMENTS', format: 'report-tree', rows: noPayments ? [] : rows };
}

export async function parseReportTree(file: string, options: ReportTreeOptions = {}): Promise<SebraDayReport> {
  return reportFromTree(await readJson(file), file, options);
}
