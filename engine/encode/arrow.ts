// Rows -> Arrow IPC stream. Columns whose values are all integers become Int64, other numbers
// Float64, booleans Bool, and everything else (decimal strings, dates, nested JSON text) Utf8.
import { Bool, Float64, Int64, Table, Utf8, tableToIPC, vectorFromArray, type DataType, type Vector } from 'apache-arrow';
import type { Row } from '../json.ts';
import { columnsOf, flatValue } from './columns.ts';

function columnType(values: ReadonlyArray<string | number | boolean | null>): DataType {
  const present = values.filter((v) => v !== null);
  if (present.length > 0 && present.every((v) => typeof v === 'boolean')) return new Bool();
  if (present.length > 0 && present.every((v) => typeof v === 'number')) {
    return present.every((v) => Number.isSafeInteger(v)) ? new Int64() : new Float64();
  }
  return new Utf8();
}

export function rowsToArrowStream(rows: readonly Row[], declaredColumns: readonly string[] = []): Uint8Array {
  const vectors: Record<string, Vector> = {};
  for (const column of columnsOf(rows, declaredColumns)) {
    const values = rows.map((row) => flatValue(row[column]));
    const type = columnType(values);
    const typed = type instanceof Int64
      ? values.map((v) => (v === null ? null : BigInt(v as number)))
      : type instanceof Utf8
        ? values.map((v) => (v === null ? null : String(v)))
        : values;
    vectors[column] = vectorFromArray(typed as unknown[], type);
  }
  return tableToIPC(new Table(vectors), 'stream');
}
