// Rows -> CSV (RFC 4180, header line, CRLF). Nested values are written as JSON text.
import { stringify } from 'csv-stringify/sync';
import type { Row } from '../json.ts';
import { columnsOf, flatValue } from './columns.ts';

export function rowsToCsv(rows: readonly Row[]): string {
  const columns = columnsOf(rows);
  return stringify(
    rows.map((row) => columns.map((column) => flatValue(row[column]))),
    { header: true, columns, record_delimiter: 'windows', cast: { boolean: (value) => String(value) } },
  );
}
