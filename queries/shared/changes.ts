// Period-to-period (LAG) changes within series, as SQL. Missing values are skipped, never taken as 0:
// rows whose value is null are left out before LAG, so each change compares two real observations
// (the previous one may be several periods back). The first observation of a series has no change.
// Arguments are column names and expressions from the catalog's own code, never client input.

export interface LagChangeSpec {
  /** Table or parenthesised subquery with an alias-free name, e.g. `agri_prices` or `(SELECT ...)`. */
  from: string;
  /** Column holding the value compared. */
  value: string;
  /** Column holding the period (date or period label that sorts in time order). */
  period: string;
  /** Columns that identify a series. */
  partitionBy: readonly string[];
  /** Columns that break ties between rows of the same period (makes the order total). */
  tieBreak?: readonly string[];
}

/**
 * Every row of `from` with a non-null value, plus:
 * previous_value, previous_period, absolute_change (value - previous), and percent_change
 * ((value - previous) / |previous| * 100 as DOUBLE; null when previous is 0), all null on a series'
 * first observation.
 */
export function lagChangesSql(spec: LagChangeSpec): string {
  const over = `OVER (PARTITION BY ${spec.partitionBy.join(', ')} ORDER BY ${[spec.period, ...(spec.tieBreak ?? [])].join(', ')})`;
  return `SELECT observed.*,
    lag(${spec.value}) ${over} AS previous_value,
    lag(${spec.period}) ${over} AS previous_period,
    ${spec.value} - lag(${spec.value}) ${over} AS absolute_change,
    CAST(${spec.value} - lag(${spec.value}) ${over} AS DOUBLE) / nullif(abs(CAST(lag(${spec.value}) ${over} AS DOUBLE)), 0) * 100 AS percent_change
  FROM (SELECT * FROM ${spec.from} WHERE ${spec.value} IS NOT NULL) AS observed`;
}
