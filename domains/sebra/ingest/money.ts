// Money as integer cents (bigint), so sums and checks are exact. Amounts arrive either as
// numbers (XLSX cells, JSON numbers) or as text ("1234.56", "1 234,56", "-12,5").

/** Cents of a JS number: round once at the cent, symmetric for negative amounts. */
export function centsFromNumber(value: number): bigint | null {
  if (!Number.isFinite(value)) return null;
  const cents = Math.sign(value) * Math.round(Math.abs(value) * 100);
  return Number.isSafeInteger(cents) ? BigInt(cents) : null;
}

const SPACES = /[\s']/g;

/**
 * Cents of an amount written as text, by digit manipulation only (no floats).
 * Accepts thousands separators (space, NBSP, apostrophe, or the separator that is not the last one),
 * a decimal comma or point, a leading sign ("-", "+", "−") and an exponent ("1.5E+7").
 * More than two decimals are rounded half away from zero. Returns null when it is not a number.
 */
export function centsFromText(text: string): bigint | null {
  let s = text.replace(SPACES, '');
  let negative = false;
  if (/^[-+\u2212]/.test(s)) {
    negative = s[0] !== '+';
    s = s.slice(1);
  }
  let exponent = 0;
  const exp = /^(.*)[eE]([-+]?\d{1,3})$/.exec(s);
  if (exp) {
    s = exp[1];
    exponent = Number(exp[2]);
  }
  const lastPoint = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let integerPart = s;
  let fraction = '';
  const decimalAt = Math.max(lastPoint, lastComma);
  if (decimalAt >= 0) {
    const mark = s[decimalAt];
    const other = mark === '.' ? ',' : '.';
    const marksOfSameKind = s.split(mark).length - 1;
    // "1.234.567" or "1,234,567": repeated marks are thousands separators, not a decimal mark.
    if (marksOfSameKind > 1 && !s.includes(other)) {
      integerPart = s.split(mark).join('');
    } else {
      integerPart = s.slice(0, decimalAt).split(other).join('');
      fraction = s.slice(decimalAt + 1);
    }
  }
  if (!/^\d*$/.test(integerPart) || !/^\d*$/.test(fraction) || integerPart + fraction === '') return null;
  // Move the decimal point for an exponent, then keep 2 decimals plus one digit to round on.
  let digits = integerPart + fraction;
  let pointAt = integerPart.length + exponent;
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  }
  digits = digits.padEnd(pointAt + 3, '0');
  const kept = BigInt(digits.slice(0, pointAt + 2) || '0');
  const roundUp = Number(digits[pointAt + 2]) >= 5;
  const cents = kept + (roundUp ? 1n : 0n);
  return negative ? -cents : cents;
}

/** Cents of a cell or JSON value; null when empty or not a number. */
export function centsFromValue(value: unknown): bigint | null {
  if (typeof value === 'number') return centsFromNumber(value);
  if (typeof value === 'string' && value.trim() !== '') return centsFromText(value.trim());
  return null;
}

/** Exact decimal string with two decimals: -123456n -> "-1234.56". */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const rest = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${rest}`;
}
