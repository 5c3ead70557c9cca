// Rows -> CSV (RFC 4180, header line, CRLF). Nested values are written as JSON text.
import { stringify } from 'csv-stringify/sync';
import type { Row } from '../json.ts';
import { columnsOf, flatValue } from './columns.ts';

export function rowsToCsv(rows: readonly Row[], declaredColumns: readonly string[] = []): string {
  const columns = columnsOf(rows, declaredColumns);
  return stringify(
    rows.map((row) => columns.map((column) => flatValue(row[column]))),
    {
      header: true,
      columns,
      record_delimiter: 'windows',
      // csv-stringify quotes only the CRLF delimiter by default; a bare LF or CR must be quoted too.
      quoted_match: /[\r\n]/,
      cast: { boolean: (value) => String(value) },
    },
  );
}
