// Value parsers for the portal's JSON: euro-prefixed price strings, dd/mm/yyyy dates, week numbers.
// Each returns null for a missing value and throws a plain Error (worded for the user) for a bad one;
// the file parser adds the file and row.

const MISSING = new Set(['', '-', '--', 'n/a', 'na', ':', 'null']);

/**
 * "€524.00" -> "524.00". Tolerant: strips the euro sign, "EUR", spaces (also no-break spaces) and
 * thousands separators, and reads a decimal comma. With both ',' and '.', the last one is the decimal
 * mark; a lone ',' followed by exactly three digits after a non-zero lead ("1,234") is a thousands
 * separator, otherwise a decimal comma ("524,00"). A number is taken as is.
 */
export function parsePrice(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`price ${value} is not a finite number`);
    return String(value);
  }
  if (typeof value !== 'string') throw new Error(`price must be a string such as "€524.00" (got ${JSON.stringify(value)})`);
  let text = value.replace(/\s/g, '').replace(/€|EUR/gi, '');
  if (MISSING.has(text.toLowerCase())) return null;
  let sign = '';
  if (text.startsWith('-')) {
    sign = '-';
    text = text.slice(1);
  }
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    const [whole, fraction, ...rest] = text.split(decimal);
    if (rest.length > 0 || !/^\d{1,3}([.,]\d{3})*$/.test(whole) || whole.includes(decimal)) throw bad(value);
    text = `${whole.split(thousands).join('')}.${fraction}`;
  } else if (lastComma >= 0) {
    text = /^[1-9]\d{0,2}(,\d{3})+$/.test(text) ? text.replaceAll(',', '') : text.split(',').length === 2 ? text.replace(',', '.') : text;
  } else if (/^[1-9]\d{0,2}(\.\d{3}){2,}$/.test(text)) {
    text = text.replaceAll('.', '');
  }
  if (!/^\d+(\.\d+)?$/.test(text)) throw bad(value);
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 4) throw new Error(`price ${JSON.stringify(value)} has more than 4 decimals`);
  if (whole.replace(/^0+(?=\d)/, '').length > 14) throw new Error(`price ${JSON.stringify(value)} is out of range`);
  return sign + text;
}

function bad(value: string): Error {
  return new Error(`price ${JSON.stringify(value)} is not a price such as "€524.00"`);
}

const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** "27/07/2026" -> "2026-07-27"; null when missing. */
export function parsePortalDate(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new Error(`${field} must be a dd/mm/yyyy string (got ${JSON.stringify(value)})`);
  const match = DMY.exec(value.trim());
  if (!match) throw new Error(`${field} ${JSON.stringify(value)} is not a dd/mm/yyyy date`);
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new Error(`${field} ${JSON.stringify(value)} is not a calendar date`);
  }
  return `${match[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Week number 1..53, as a number or numeric string; null when missing. */
export function parseWeekNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || !/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > 53) {
    throw new Error(`weekNumber ${JSON.stringify(value)} is not a week number 1..53`);
  }
  return Number(text);
}

/** "2026/2027" (or "2026/27", "2026-2027") -> "2026/2027"; null when missing. */
export function parseMarketingYear(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{4})\s*[/-]\s*(\d{2}|\d{4})$/.exec(text);
  if (!match) throw new Error(`marketingYear ${JSON.stringify(value)} is not a marketing year such as "2026/2027"`);
  const start = Number(match[1]);
  const end = match[2].length === 2 ? Number(String(start).slice(0, 2) + match[2]) : Number(match[2]);
  if (end !== start + 1) throw new Error(`marketingYear ${JSON.stringify(value)} does not span two consecutive years`);
  return `${start}/${end}`;
}

/** A trimmed string (numbers accepted as text); null when missing or blank. */
export function optionalText(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`${field} must be text (got ${JSON.stringify(value)})`);
  const text = value.trim().replace(/\s+/g, ' ');
  return text === '' ? null : text;
}
