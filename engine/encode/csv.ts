// Rows -> CSV (RFC 4180, header line, CRLF). Nested values are written as JSON text.
//
// Formula injection (OWASP "CSV Injection"): a text cell beginning with `=`, `+`, `-`, `@`, a tab or a
// carriage return is a formula to a spreadsheet, so it is written with a single quote `'` in front.
// A cell that is a number in decimal notation is left as it is, whatever its sign: numeric columns
// (-5) and the exact decimal text of money columns ('-120.50', engine/json.ts) stay numbers.
import { stringify } from 'csv-stringify/sync';
import type { Row } from '../json.ts';
import { columnsOf, flatValue } from './columns.ts';

const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The text as a spreadsheet may safely open it: `'` before a formula's first character. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !DECIMAL_NUMBER.test(text) ? `'${text}` : text;
}

export function rowsToCsv(rows: readonly Row[], declaredColumns: readonly string[] = []): string {
  const columns = columnsOf(rows, declaredColumns);
  return stringify(
    rows.map((row) => columns.map((column) => flatValue(row[column]))),
    {
      header: true,
      // Column names can come from data (pivoted answers): neutralised like any text cell.
      columns: columns.map((column) => ({ key: column, header: neutraliseFormula(column) })),
      record_delimiter: 'windows',
      // csv-stringify quotes only the CRLF delimiter by default; a bare LF or CR must be quoted too.
      quoted_match: /[\r\n]/,
      cast: { boolean: (value) => String(value), string: neutraliseFormula },
    },
  );
}
