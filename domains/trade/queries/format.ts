// Number rendering shared by the trade and markets bodies.

/** An exact decimal as text with at least two decimals and no trailing zeros beyond them ("524.00", "18.175"). */
export function exactText(expression: string): string {
  return `regexp_replace(CAST(${expression} AS VARCHAR), '(\\.\\d{2}\\d*?)0+$', '\\1')`;
}

/**
 * An exact decimal stored as the text the answer shows (DuckDB's text of a DECIMAL is the driver's:
 * sign, digits, '.', every scale digit), so a served shape holds no 128-bit decimals: they are the
 * slowest columns to read back from a database file, and the text needs no conversion per request.
 */
export function decimalText(expression: string): string {
  return `CAST(${expression} AS VARCHAR)`;
}

/**
 * A shape's SELECT with `item`, the JSON text of the answer's columns (in the answer's key order)
 * beside them: a page then reads one text column and parses it, instead of converting every column of
 * every row (the columns stay for the filters and for the statements that still read them). The values
 * are text, integers, dates and nulls, which JSON carries exactly (JSON.parse gives what the driver does).
 */
export function withItem(select: string, answerColumns: string): string {
  const columns = answerColumns.split(',').map((column) => column.trim());
  return `SELECT *, to_json(struct_pack(${columns.map((column) => `"${column}" := "${column}"`).join(', ')}))::VARCHAR AS item FROM (${select})`;
}
