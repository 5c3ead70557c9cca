// HICP annual rates of change (Eurostat prc_hicp_manr) from the Eurostat reader's estat_observations:
// monthly (freq M), unit RCH_A, all items. All items is coicop CP00; a file from after Eurostat's 2026
// move to COICOP 2018 may carry the dimension as coicop18 and the all-items code TOTAL instead: per
// (geo, month) CP00 is taken when present, else TOTAL (ALL_ITEMS_CODES, in that order of preference).
import type { Database } from '../../../engine/database.ts';
import { ESTAT_OBSERVATIONS } from '../../../ingest/eurostat/load.ts';

export const HICP_DATASET = 'prc_hicp_manr';
export const HICP_UNIT = 'RCH_A';
/** All-items codes, preferred first. */
export const ALL_ITEMS_CODES = ['CP00', 'TOTAL'] as const;
/** The euro-area benchmark aggregate: the first of these the data has for the month. */
export const BENCHMARK_GEOS = ['EA', 'EA20', 'EA19'] as const;

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
    WHERE pick = 1 ORDER BY geo, month`);
}
