// Number rendering shared by the trade and markets bodies.

/** An exact decimal as text with at least two decimals and no trailing zeros beyond them ("524.00", "18.175"). */
export function exactText(expression: string): string {
  return `regexp_replace(CAST(${expression} AS VARCHAR), '(\\.\\d{2}\\d*?)0+$', '\\1')`;
}
