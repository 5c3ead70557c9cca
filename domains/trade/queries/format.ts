// Number rendering shared by the trade and markets bodies.

/** An exact decimal as text with at least two decimals and no trailing zeros beyond them ("524.00", "18.175"). */
export function exactText(expression: string): string {
  return `regexp_replace(CAST(${expression} AS VARCHAR), '(\\.\\d{2}\\d*?)0+$', '\\1')`;
}

/** Several codes bound as one parameter: joined with the unit separator (chr(31)), split in SQL. */
export const LIST_SEPARATOR = '\u001f';
export const joinList = (items: readonly string[] | null): string | null => (items === null ? null : items.join(LIST_SEPARATOR));
export const inListSql = (param: string, column: string) =>
  `(CAST(${param} AS VARCHAR) IS NULL OR list_contains(string_split(${param}, chr(31)), ${column}))`;
