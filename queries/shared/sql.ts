// SQL fragments every domain reuses: z-scores, ranks, money and ratio formatting.
// Arguments are identifiers and expressions from the catalog's own code, never client input.

/** Money as an exact decimal with two places (rendered as a "1234.50" string). */
export function money(expression: string): string {
  return `CAST(${expression} AS DECIMAL(38,2))`;
}

/** A ratio, mean or score rounded to two places (rendered as a decimal string). */
export function decimal2(expression: string): string {
  return `CAST(round(${expression}, 2) AS DECIMAL(38,2))`;
}

/**
 * Population z-score of `value` within `partitionBy` (mean and standard deviation over the
 * partition's rows). Null when the partition has no spread, so such rows never qualify.
 */
export function zScore(value: string, partitionBy: string): string {
  const over = `OVER (PARTITION BY ${partitionBy})`;
  return `((${value}) - avg(${value}) ${over}) / nullif(stddev_pop(${value}) ${over}, 0)`;
}

/** Mean of `value` within `partitionBy`. */
export function partitionMean(value: string, partitionBy: string): string {
  return `avg(${value}) OVER (PARTITION BY ${partitionBy})`;
}

/** 1-based contiguous rank after a total ordering (the caller's ORDER BY must end in a unique key). */
export function rank(orderBy: string, partitionBy?: string): string {
  return `row_number() OVER (${partitionBy ? `PARTITION BY ${partitionBy} ` : ''}ORDER BY ${orderBy})`;
}
