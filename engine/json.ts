// DuckDB values -> JSON-ready JS values.
// DECIMAL stays an exact decimal string (money must not pass through floats), DATE is YYYY-MM-DD,
// integer types (BIGINT counts included) become numbers when they fit in a double exactly.
import {
  createDuckDBValueConverter,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  numberFromValue,
  stringFromValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Row = Record<string, JsonValue>;

function integerFromValue(value: DuckDBValue): number | string {
  const big = BigInt(value as bigint);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(big) : big.toString();
}

const jsonFallback = JsonDuckDBValueConverter as DuckDBValueConverter<Json>;

const overrides: Partial<Record<DuckDBTypeId, DuckDBValueConverter<Json>>> = {
  [DuckDBTypeId.BIGINT]: integerFromValue,
  [DuckDBTypeId.UBIGINT]: integerFromValue,
  [DuckDBTypeId.HUGEINT]: integerFromValue,
  [DuckDBTypeId.UHUGEINT]: integerFromValue,
  [DuckDBTypeId.INTEGER]: numberFromValue,
  [DuckDBTypeId.DECIMAL]: stringFromValue,
  [DuckDBTypeId.DATE]: stringFromValue,
};

const byTypeId = {} as Record<DuckDBTypeId, DuckDBValueConverter<Json> | undefined>;
for (const id of Object.values(DuckDBTypeId)) {
  if (typeof id !== 'number') continue;
  const typeId = id as DuckDBTypeId;
  byTypeId[typeId] = overrides[typeId] ?? ((value: DuckDBValue, type: DuckDBType, converter: DuckDBValueConverter<Json>) =>
    jsonFallback(value, type, converter));
}

/** Converter used for every result row the service returns. */
export const jsonValueConverter = createDuckDBValueConverter<Json>(byTypeId);
