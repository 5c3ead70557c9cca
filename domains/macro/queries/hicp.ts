// HICP annual rates of change (Eurostat prc_hicp_manr) from the Eurostat reader's estat_observations:
// monthly (freq M), unit RCH_A, all items. All items is coicop CP00; a file from after Eurostat's 2026
// move to COICOP 2018 may carry the dimension as coicop18 and the all-items code TOTAL instead: per
// (geo, month) CP00 is taken when present, else TOTAL (ALL_ITEMS_CODES, in that order of preference).
//   macro_hicp                 (geo, month, value, coicop), sorted by month (the divergence reads one month)
//   macro_hicp_latest          per geo its latest month and value (the overview's headline)
//   macro_hicp_default_period  the divergence's default month (no row when none qualifies)
import type { Database } from '../../../engine/database.ts';
import { ESTAT_OBSERVATIONS } from '../../../ingest/eurostat/load.ts';

export const HICP_DATASET = 'prc_hicp_manr';
export const HICP_UNIT = 'RCH_A';
/** All-items codes, preferred first. */
export const ALL_ITEMS_CODES = ['CP00', 'TOTAL'] as const;
/** The euro-area benchmark aggregate: the first of these the data has for the month. */
export const BENCHMARK_GEOS = ['EA', 'EA20', 'EA19'] as const;
/** The EU27 member states, Eurostat codes (Greece EL). */
export const EU27 = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'] as const;
/** Fewest EU27 countries a month needs to be the default period of the divergence. */
export const MIN_COUNTRIES = 20;

const quoted = (codes: readonly string[]) => codes.map((c) => `'${c}'`).join(', ');

export async function loadHicp(db: Database): Promise<void> {
  const order = ALL_ITEMS_CODES.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ');
  const list = ALL_ITEMS_CODES.map((c) => `'${c}'`).join(', ');
  await db.run(`CREATE TABLE macro_hicp AS
    SELECT geo, month, value, coicop FROM (
      SELECT geo, time_period AS month, obs_value AS value, coicop,
             row_number() OVER (PARTITION BY geo, time_period ORDER BY CASE coicop ${order} END) AS pick
        FROM (SELECT geo, time_period, obs_value, coalesce(dims['coicop'], dims['coicop18']) AS coicop
                FROM ${ESTAT_OBSERVATIONS}
               WHERE dataset_id = '${HICP_DATASET}' AND freq = 'M' AND unit = '${HICP_UNIT}' AND geo IS NOT NULL
                 AND obs_value IS NOT NULL AND regexp_full_match(time_period, '\\d{4}-\\d{2}'))
       WHERE coicop IN (${list}))
    WHERE pick = 1 ORDER BY month, geo`);
  await db.run(`CREATE TABLE macro_hicp_latest AS
    SELECT geo, max(month) AS month, arg_max(value, month) AS value FROM macro_hicp GROUP BY geo ORDER BY geo`);
  // The latest month of a benchmark geo with at least MIN_COUNTRIES EU27 countries (macro_hicp holds one row per geo and month).
  await db.run(`CREATE TABLE macro_hicp_default_period AS
    SELECT max(month) AS month FROM (
      SELECT month FROM macro_hicp WHERE geo IN (${quoted(EU27)}) GROUP BY month HAVING count(*) >= ${MIN_COUNTRIES}
      INTERSECT SELECT month FROM macro_hicp WHERE geo IN (${quoted(BENCHMARK_GEOS)}))
    HAVING max(month) IS NOT NULL`);
}
