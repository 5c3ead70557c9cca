// The energy rollups, built once at load from the Eurostat observations (estat_observations), the
// World Bank observations and the ETS tables, so that every request reads a small precomputed shape:
//   energy_datasets        per Eurostat dataset: rows, series, geos, first/last period, freqs, units, dimension keys
//   energy_countries       per geo: observation rows over every Eurostat dataset
//   energy_series          per series variant (dataset, geo, series_key, freq, unit, dims): those and its latest period with a value
//   energy_obs_by_geo      the observations (lean: variant, no dims) sorted by (dataset_id, geo, series_key, period): a series is one range
//   energy_obs_by_period   the same sorted by (dataset_id, time_period, geo, series_key): a period's cross-section is one range
//   energy_balance         nrg_bal_s annual, per (geo, siec, unit, year): PPRD, GIC, FC_E, IMP, EXP, GAE, complete
//   energy_dependency      per (geo, year): import_dependency_pct = (IMP - EXP) / GAE * 100 on TOTAL KTOE
//   energy_balance_card    energy_balance with the import dependency (and GAE) of the row's year
//   energy_mix             per (geo, unit, year, siec): GIC and its share of TOTAL GIC
//   energy_electricity     nrg_cb_e annual, per (geo, siec, unit, year): GEP, NEP, FC, IMP, EXP, self-sufficiency, trade balance
//   energy_card_series     the indicator cards' series (renewables_share, energy_intensity, electricity_price)
//   energy_cards           per (geo, indicator): latest value with the prior period's
//   energy_devbank         per (geo, indicator): the latest non-missing WDI year
//   energy_ets_years       per (geo, year): verified ETS emissions of the country's registry
//   energy_carbon          per (geo, year): ETS emissions per GIC, share of EU27, pressure percentile
//   energy_metric_values   per (metric, geo, year): the rankings' metrics; energy_rankings at each metric's period
//   energy_coverage        per geo: the flagship datasets (and ets) holding a value for it
//   energy_completeness    per (flagship dataset or ets, EU27 geo): pass / warn / fail
//   energy_completeness_summary  the completeness answer's lists (per dataset counts, non-pass cells): one row
//   energy_geo_cards       per geo, every part of the indicator, profile and scorecard cards (one row read per request)
//   ets_registry_years     per (registry, year): installations with verified emissions, their sum
//   ets_ranked             per (registry, year): installations ranked by verified emissions
// Rounding: derived percentages and ratios to 2 decimals, changes to 4; published values unchanged.
import type { Database } from '../../../engine/database.ts';
import {
  COMPLETENESS_MAX_LAG_YEARS, DEVBANK, EU27, FLAGSHIP_DATASETS, INTENSITY, LOWER_IS_BETTER, PRICE, RANKING_METRICS, RANKINGS_MIN_EU27,
  REGISTRY_TO_GEO, RENEWABLES,
} from './constants.ts';

const list = (values: readonly string[]) => values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');
const EU27_SQL = `(${list(EU27)})`;

async function tableExists(db: Database, name: string): Promise<boolean> {
  const [row] = await db.all(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = $name AND schema_name = 'main'`, { name });
  return Number(row.n) > 0;
}

/** The World Bank observations as (iso3, indicator, year, value), whatever the reader's table is. */
export interface WorldBankSource {
  /** A SELECT giving iso3, indicator, year (INTEGER), value (DOUBLE); null when there is no World Bank table. */
  sql: string | null;
}

/** Builds every energy rollup. Reads estat_observations, the ETS tables, and the WDI rows of `worldBank`. */
export async function buildEnergyTables(db: Database, worldBank: WorldBankSource, isoCodes: ReadonlyArray<readonly [string, string]>): Promise<void> {
  await db.run(`CREATE TABLE energy_datasets AS
    WITH o AS (SELECT * FROM estat_observations),
    bounds AS (
      SELECT dataset_id, count(*)::BIGINT AS row_count, count(DISTINCT series_key)::BIGINT AS series_count, count(DISTINCT geo)::BIGINT AS geo_count,
        arg_min(time_period, period_start) AS period_min, arg_max(time_period, period_start) AS period_max,
        list_sort(list_distinct(list(freq))) AS freqs, list_sort(list_distinct(list(unit) FILTER (WHERE unit IS NOT NULL))) AS units
      FROM o GROUP BY dataset_id)
    SELECT b.*, coalesce(d.dimension_keys, []::VARCHAR[]) AS dimension_keys
    FROM bounds b LEFT JOIN estat_datasets d USING (dataset_id) ORDER BY dataset_id`);
  await db.run(`CREATE TABLE energy_countries AS
    SELECT geo, count(*)::BIGINT AS row_count, count(DISTINCT dataset_id)::INTEGER AS dataset_count
    FROM estat_observations WHERE geo IS NOT NULL GROUP BY geo ORDER BY geo`);
  await buildObservationLayouts(db);

  // Supply balance (nrg_bal_s, annual).
  const bal = (code: string) => `max(obs_value) FILTER (WHERE dims['nrg_bal'] = '${code}')`;
  await db.run(`CREATE TABLE energy_balance AS
    SELECT *, (pprd IS NOT NULL AND gic IS NOT NULL AND fc_e IS NOT NULL AND imp IS NOT NULL AND exp IS NOT NULL) AS complete FROM (
      SELECT geo, dims['siec'] AS siec, unit, CAST(time_period AS INTEGER) AS year,
        ${bal('PPRD')} AS pprd, ${bal('GIC')} AS gic, ${bal('FC_E')} AS fc_e, ${bal('IMP')} AS imp, ${bal('EXP')} AS exp, ${bal('GAE')} AS gae
      FROM estat_observations
      WHERE dataset_id = 'nrg_bal_s' AND freq = 'A' AND geo IS NOT NULL AND unit IS NOT NULL AND dims['siec'] IS NOT NULL
      GROUP BY ALL)
    ORDER BY geo, siec, unit, year`);
  await db.run(`CREATE TABLE energy_dependency AS
    SELECT geo, year, imp, exp, gae, round((imp - exp) / nullif(gae, 0) * 100, 2) AS import_dependency_pct
    FROM energy_balance WHERE siec = 'TOTAL' AND unit = 'KTOE' ORDER BY geo, year`);
  // The balance card's row: a balance row with the import dependency of its year (TOTAL KTOE), so the card reads one row.
  await db.run(`CREATE TABLE energy_balance_card AS
    SELECT b.*, d.import_dependency_pct AS dependency_pct, d.gae AS dependency_gae
      FROM energy_balance b LEFT JOIN energy_dependency d ON d.geo = b.geo AND d.year = b.year
     ORDER BY b.geo, b.siec, b.unit, b.year`);
  await db.run(`CREATE TABLE energy_mix AS
    SELECT b.geo, b.unit, b.year, b.siec, b.gic AS value, round(b.gic / nullif(t.gic, 0) * 100, 2) AS share_pct
    FROM energy_balance b JOIN energy_balance t ON t.geo = b.geo AND t.unit = b.unit AND t.year = b.year AND t.siec = 'TOTAL'
    WHERE b.siec <> 'TOTAL' AND b.gic IS NOT NULL
    ORDER BY b.geo, b.unit, b.year, b.gic DESC, b.siec`);

  // Electricity (nrg_cb_e, annual). Final consumption: FC_E, else FC.
  await db.run(`CREATE TABLE energy_electricity AS
    SELECT *, round(gep / nullif(gep + imp - exp, 0) * 100, 2) AS self_sufficiency_pct, round(exp - imp, 4) AS trade_balance,
      (gep IS NOT NULL AND imp IS NOT NULL AND exp IS NOT NULL) AS complete
    FROM (
      SELECT geo, dims['siec'] AS siec, unit, CAST(time_period AS INTEGER) AS year,
        ${bal('GEP')} AS gep, ${bal('NEP')} AS nep, coalesce(${bal('FC_E')}, ${bal('FC')}) AS fc,
        CASE WHEN ${bal('FC_E')} IS NOT NULL THEN 'FC_E' WHEN ${bal('FC')} IS NOT NULL THEN 'FC' END AS fc_code,
        ${bal('IMP')} AS imp, ${bal('EXP')} AS exp
      FROM estat_observations
      WHERE dataset_id = 'nrg_cb_e' AND freq = 'A' AND geo IS NOT NULL AND unit IS NOT NULL AND dims['siec'] IS NOT NULL
      GROUP BY ALL)
    ORDER BY geo, siec, unit, year`);

  // Indicator cards: one series per (geo, indicator).
  await db.run(`CREATE TABLE energy_card_series AS
    SELECT geo, 'renewables_share' AS indicator, unit, series_key, time_period, period_start, obs_value AS value
      FROM estat_observations
     WHERE dataset_id = '${RENEWABLES.dataset}' AND freq = 'A' AND dims['nrg_bal'] = '${RENEWABLES.nrg_bal}' AND unit = '${RENEWABLES.unit}'
       AND geo IS NOT NULL AND obs_value IS NOT NULL
    UNION ALL
    SELECT geo, 'energy_intensity', unit, series_key, time_period, period_start, obs_value FROM (
      SELECT *, dense_rank() OVER (PARTITION BY geo ORDER BY unit DESC, series_key) AS pick FROM estat_observations
       WHERE dataset_id = '${INTENSITY.dataset}' AND freq = 'A' AND starts_with(unit, '${INTENSITY.unitPrefix}') AND geo IS NOT NULL AND obs_value IS NOT NULL)
     WHERE pick = 1
    UNION ALL
    SELECT geo, 'electricity_price', 'EUR/KWH', series_key, time_period, period_start, obs_value FROM (
      SELECT *, dense_rank() OVER (PARTITION BY geo ORDER BY series_key) AS pick FROM estat_observations
       WHERE dataset_id = '${PRICE.dataset}' AND freq = 'S' AND dims['nrg_cons'] = '${PRICE.nrg_cons}' AND dims['tax'] = '${PRICE.tax}'
         AND dims['currency'] = '${PRICE.currency}' AND unit = '${PRICE.unit}' AND geo IS NOT NULL AND obs_value IS NOT NULL)
     WHERE pick = 1`);
  await db.run(`CREATE TABLE energy_cards AS
    WITH latest AS (SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY geo, indicator ORDER BY period_start DESC) AS n FROM energy_card_series) WHERE n = 1)
    SELECT l.geo, l.indicator, l.unit, l.value, l.time_period AS period, p.value AS previous_value, p.time_period AS previous_period,
      round(l.value - p.value, 4) AS yoy_change, round((l.value - p.value) / nullif(abs(p.value), 0) * 100, 2) AS yoy_change_pct
    FROM latest l LEFT JOIN energy_card_series p
      ON p.geo = l.geo AND p.indicator = l.indicator AND p.series_key = l.series_key AND p.period_start = l.period_start - INTERVAL 1 YEAR
    ORDER BY l.geo, l.indicator`);

  // Development-bank indicators (WDI, ISO3 codes) under the Eurostat geo code.
  await db.run('CREATE TABLE energy_iso_codes (iso3 VARCHAR, geo VARCHAR)');
  await db.appendRows('energy_iso_codes', isoCodes.map(([iso3, geo]) => [iso3, geo]));
  if (worldBank.sql) {
    await db.run(`CREATE TABLE energy_devbank AS
      SELECT geo, indicator, value, year FROM (
        SELECT c.geo, w.indicator, w.value, w.year, row_number() OVER (PARTITION BY c.geo, w.indicator ORDER BY w.year DESC) AS n
          FROM (${worldBank.sql}) w JOIN energy_iso_codes c ON c.iso3 = w.iso3
         WHERE w.indicator IN (${list(Object.values(DEVBANK))}) AND w.value IS NOT NULL)
      WHERE n = 1 ORDER BY geo, indicator`);
  } else {
    await db.run('CREATE TABLE energy_devbank (geo VARCHAR, indicator VARCHAR, value DOUBLE, year INTEGER)');
  }

  // ETS.
  const geoOfRegistry = `CASE registry_code ${Object.entries(REGISTRY_TO_GEO).map(([r, g]) => `WHEN '${r}' THEN '${g}'`).join(' ')} WHEN 'XI' THEN NULL ELSE registry_code END`;
  await db.run(`CREATE TABLE ets_registry_years AS
    SELECT registry_code, ${geoOfRegistry} AS geo, year, count(verified_emissions)::INTEGER AS installation_count,
      sum(verified_emissions)::BIGINT AS verified_emissions_sum, sum(allocation)::BIGINT AS allocation_sum
    FROM ets_emissions GROUP BY registry_code, year HAVING count(verified_emissions) > 0
    ORDER BY year, registry_code`);
  await db.run(`CREATE TABLE ets_ranked AS
    SELECT e.registry_code, e.year, e.installation_identifier, i.installation_name, i.main_activity_code, i.city,
      e.verified_emissions, e.allocation,
      row_number() OVER (PARTITION BY e.registry_code, e.year ORDER BY e.verified_emissions DESC, e.installation_identifier) AS rank
    FROM ets_emissions e LEFT JOIN ets_installations i USING (registry_code, installation_identifier)
    WHERE e.verified_emissions IS NOT NULL
    ORDER BY e.registry_code, e.year, rank`);
  await db.run(`CREATE TABLE energy_ets_years AS
    SELECT geo, year, verified_emissions_sum AS ets_emissions FROM ets_registry_years WHERE geo IS NOT NULL ORDER BY geo, year`);
  await db.run(`CREATE TABLE energy_carbon AS
    WITH joined AS (
      SELECT e.geo, e.year, e.ets_emissions, b.gic, round(e.ets_emissions / nullif(b.gic, 0), 2) AS ets_per_gic
        FROM energy_ets_years e LEFT JOIN energy_balance b ON b.geo = e.geo AND b.year = e.year AND b.siec = 'TOTAL' AND b.unit = 'KTOE'),
    eu AS (SELECT year, sum(ets_emissions) AS eu27_emissions FROM energy_ets_years WHERE geo IN ${EU27_SQL} GROUP BY year),
    peers AS (SELECT geo, year, ets_per_gic FROM joined WHERE geo IN ${EU27_SQL} AND ets_per_gic IS NOT NULL)
    SELECT j.*, round(j.ets_emissions / nullif(eu.eu27_emissions, 0) * 100, 2) AS ets_share_of_eu27,
      CASE WHEN j.ets_per_gic IS NOT NULL THEN (SELECT count(*) FILTER (WHERE p.ets_per_gic <= j.ets_per_gic) FROM peers p WHERE p.year = j.year) END::INTEGER AS peers_at_or_below,
      CASE WHEN j.ets_per_gic IS NOT NULL THEN (SELECT count(*) FROM peers p WHERE p.year = j.year) END::INTEGER AS peers_count
    FROM joined j LEFT JOIN eu USING (year) ORDER BY geo, year`);

  // Rankings.
  await db.run(`CREATE TABLE energy_metric_values AS
    SELECT 'import_dependency_pct' AS metric, geo, year, import_dependency_pct AS value FROM energy_dependency WHERE import_dependency_pct IS NOT NULL
    UNION ALL SELECT 'self_sufficiency_pct', geo, year, self_sufficiency_pct FROM energy_electricity
      WHERE siec = 'E7000' AND unit = 'GWH' AND self_sufficiency_pct IS NOT NULL
    UNION ALL SELECT 'renewables_share', geo, CAST(time_period AS INTEGER), value FROM energy_card_series WHERE indicator = 'renewables_share'
    UNION ALL SELECT 'ets_emissions', geo, year, CAST(ets_emissions AS DOUBLE) FROM energy_ets_years
    UNION ALL SELECT 'ets_per_gic', geo, year, ets_per_gic FROM energy_carbon WHERE ets_per_gic IS NOT NULL`);
  await db.run(`CREATE TABLE energy_metric_periods AS
    SELECT m.metric, (SELECT max(year) FROM (SELECT year FROM energy_metric_values v WHERE v.metric = m.metric AND v.geo IN ${EU27_SQL}
                        GROUP BY year HAVING count(DISTINCT geo) >= ${RANKINGS_MIN_EU27})) AS period
    FROM (SELECT unnest([${list(RANKING_METRICS)}]) AS metric) m`);
  const lowerIsBetter = `(${list([...LOWER_IS_BETTER])})`;
  await db.run(`CREATE TABLE energy_rankings AS
    WITH at_period AS (SELECT v.* FROM energy_metric_values v JOIN energy_metric_periods p ON p.metric = v.metric AND p.period = v.year),
    peers AS (SELECT metric, value FROM at_period WHERE geo IN ${EU27_SQL})
    SELECT a.metric, a.geo, a.year AS period, a.value,
      round((SELECT count(*) FILTER (WHERE CASE WHEN a.metric IN ${lowerIsBetter} THEN p.value >= a.value ELSE p.value <= a.value END) * 100.0 / count(*)
               FROM peers p WHERE p.metric = a.metric), 2) AS percentile
    FROM at_period a ORDER BY a.metric, a.geo`);

  // Which flagship datasets (and ets) hold a value for a geo: the scorecard's coverage flags.
  await db.run(`CREATE TABLE energy_coverage AS
    SELECT DISTINCT geo, dataset_id FROM estat_observations
     WHERE dataset_id IN (${list(FLAGSHIP_DATASETS)}) AND geo IS NOT NULL AND obs_value IS NOT NULL
    UNION SELECT DISTINCT geo, 'ets' FROM energy_ets_years
    ORDER BY geo, dataset_id`);

  // Completeness of the flagship datasets and ETS over EU27.
  await db.run(`CREATE TABLE energy_completeness AS
    WITH latest AS (
      SELECT dataset_id, geo, arg_max(time_period, period_start) AS latest_period, max(period_start) AS latest_start
        FROM estat_observations WHERE dataset_id IN (${list(FLAGSHIP_DATASETS)}) AND obs_value IS NOT NULL AND geo IS NOT NULL
       GROUP BY dataset_id, geo
      UNION ALL
      SELECT 'ets', geo, CAST(max(year) AS VARCHAR), make_date(max(year), 1, 1) FROM energy_ets_years GROUP BY geo),
    newest AS (SELECT dataset_id, arg_max(latest_period, latest_start) AS newest_period, max(latest_start) AS newest_start FROM latest GROUP BY dataset_id),
    cells AS (SELECT d.dataset_id, g.geo FROM (SELECT unnest([${list([...FLAGSHIP_DATASETS, 'ets'])}]) AS dataset_id) d,
                     (SELECT unnest([${list(EU27)}]) AS geo) g)
    SELECT c.dataset_id, c.geo, l.latest_period, n.newest_period,
      CASE WHEN l.latest_start IS NULL THEN 'fail'
           WHEN l.latest_start >= n.newest_start - INTERVAL ${COMPLETENESS_MAX_LAG_YEARS} YEAR THEN 'pass' ELSE 'warn' END AS status
    FROM cells c LEFT JOIN latest l USING (dataset_id, geo) LEFT JOIN newest n USING (dataset_id)
    ORDER BY c.dataset_id, c.geo`);
  await db.run(`CREATE TABLE energy_completeness_summary AS SELECT
    (SELECT list({'dataset_id': dataset_id, 'newest_period': newest_period, 'pass_count': pass_count, 'warn_count': warn_count, 'fail_count': fail_count}
                 ORDER BY dataset_id) FROM (
       SELECT dataset_id, max(newest_period) AS newest_period, count(*) FILTER (WHERE status = 'pass')::INTEGER AS pass_count,
              count(*) FILTER (WHERE status = 'warn')::INTEGER AS warn_count, count(*) FILTER (WHERE status = 'fail')::INTEGER AS fail_count
         FROM energy_completeness GROUP BY dataset_id)) AS datasets,
    (SELECT list({'dataset_id': dataset_id, 'geo': geo, 'status': status, 'latest_period': latest_period} ORDER BY dataset_id, geo)
       FROM energy_completeness WHERE status <> 'pass') AS details`);

  await buildGeoCards(db);
}

/**
 * Per geo, every part of the per-country cards that takes no parameter but the geo: the indicator card
 * (energy_cards), the WDI figures, and the scorecard's supply (latest complete TOTAL KTOE year with its
 * import dependency), electricity (E7000 GWh), fuel-mix top 3, the last 4 renewables points (newest
 * first), carbon (latest year with ets_per_gic) and coverage. Orders as the cards list them.
 */
async function buildGeoCards(db: Database): Promise<void> {
  await db.run(`CREATE TABLE energy_geo_cards AS
    WITH geos AS (
      SELECT geo FROM energy_cards UNION SELECT geo FROM energy_devbank UNION SELECT geo FROM energy_balance
      UNION SELECT geo FROM energy_electricity UNION SELECT geo FROM energy_card_series UNION SELECT geo FROM energy_carbon
      UNION SELECT geo FROM energy_coverage),
    cards AS (
      SELECT geo, list({'indicator': indicator, 'unit': unit, 'value': value, 'period': period, 'previous_value': previous_value,
                        'previous_period': previous_period, 'yoy_change': yoy_change, 'yoy_change_pct': yoy_change_pct} ORDER BY indicator) AS cards
        FROM energy_cards GROUP BY geo),
    devbank AS (SELECT geo, list({'indicator': indicator, 'value': value, 'year': year} ORDER BY indicator) AS devbank FROM energy_devbank GROUP BY geo),
    supply AS (
      SELECT geo, year, gic, pprd FROM (
        SELECT *, row_number() OVER (PARTITION BY geo ORDER BY complete DESC, year DESC) AS pick FROM energy_balance WHERE siec = 'TOTAL' AND unit = 'KTOE')
       WHERE pick = 1),
    electricity AS (
      SELECT geo, year, self_sufficiency_pct, trade_balance FROM (
        SELECT *, row_number() OVER (PARTITION BY geo ORDER BY complete DESC, year DESC) AS pick FROM energy_electricity WHERE siec = 'E7000' AND unit = 'GWH')
       WHERE pick = 1),
    mix AS (
      SELECT m.geo, list({'siec': m.siec, 'share_pct': m.share_pct} ORDER BY m.value DESC, m.siec)[1:3] AS mix_top3
        FROM energy_mix m JOIN supply s ON s.geo = m.geo AND s.year = m.year WHERE m.unit = 'KTOE' GROUP BY m.geo),
    renewables AS (
      SELECT geo, list({'year': CAST(time_period AS INTEGER), 'value': value} ORDER BY period_start DESC, series_key)[1:4] AS renewables
        FROM energy_card_series WHERE indicator = 'renewables_share' GROUP BY geo),
    carbon AS (
      SELECT * EXCLUDE (pick) FROM (
        SELECT geo, year, ets_emissions, ets_per_gic, ets_share_of_eu27, peers_at_or_below, peers_count,
               row_number() OVER (PARTITION BY geo ORDER BY year DESC) AS pick
          FROM energy_carbon WHERE ets_per_gic IS NOT NULL)
       WHERE pick = 1),
    coverage AS (SELECT geo, list(dataset_id ORDER BY dataset_id) AS coverage FROM energy_coverage GROUP BY geo)
    SELECT g.geo, c.cards, d.devbank,
      s.year AS supply_year, s.gic AS supply_gic, s.pprd AS supply_pprd, dep.import_dependency_pct,
      e.year AS electricity_year, e.self_sufficiency_pct, e.trade_balance,
      m.mix_top3, r.renewables,
      cb.year AS carbon_year, cb.ets_emissions, cb.ets_per_gic, cb.ets_share_of_eu27, cb.peers_at_or_below, cb.peers_count,
      v.coverage
    FROM geos g
    LEFT JOIN cards c USING (geo) LEFT JOIN devbank d USING (geo) LEFT JOIN supply s USING (geo)
    LEFT JOIN energy_dependency dep ON dep.geo = s.geo AND dep.year = s.year
    LEFT JOIN electricity e USING (geo) LEFT JOIN mix m USING (geo) LEFT JOIN renewables r USING (geo)
    LEFT JOIN carbon cb USING (geo) LEFT JOIN coverage v USING (geo)
    ORDER BY g.geo`);
}

/**
 * The Eurostat observations laid out for the generic routes (series, latest, compare). A series variant
 * is one distinct (dataset, geo, series_key, freq, unit, dims) of the observations (freq may vary within a
 * series when the file has no freq dimension), numbered in that order; energy_series holds each once,
 * with its dims and latest period with a value, so the dimension filters and "the latest period" read
 * series, not observations. The observations themselves are kept lean (no dims) in two copies sorted by
 * the routes' filter keys, so zone maps skip every other dataset, geo and period and the rows carried
 * through a sort are small; a page's dims are joined from energy_series at the end.
 */
async function buildObservationLayouts(db: Database): Promise<void> {
  await db.run(`CREATE TABLE energy_series AS
    SELECT (row_number() OVER (ORDER BY dataset_id, geo, series_key, freq, unit, CAST(dims AS VARCHAR)))::INTEGER AS variant, * FROM (
      SELECT dataset_id, geo, series_key, freq, unit, dims,
             max(period_start) FILTER (WHERE obs_value IS NOT NULL) AS latest_start,
             arg_max(time_period, (period_start, time_period)) FILTER (WHERE obs_value IS NOT NULL) AS latest_period
        FROM estat_observations GROUP BY dataset_id, geo, series_key, freq, unit, dims)
    ORDER BY variant`);
  // Each observation tagged with its variant (a staging table, dropped once both sorted copies exist).
  await db.run(`CREATE TABLE energy_obs_variants AS
    SELECT o.dataset_id, o.geo, o.series_key, o.period_start, o.time_period, s.variant, o.obs_value, o.obs_flag
      FROM estat_observations o JOIN energy_series s
        ON s.dataset_id = o.dataset_id AND s.series_key = o.series_key AND s.freq = o.freq
       AND s.geo IS NOT DISTINCT FROM o.geo AND s.unit IS NOT DISTINCT FROM o.unit AND s.dims = o.dims`);
  await db.run(`CREATE TABLE energy_obs_by_geo AS
    SELECT dataset_id, geo, series_key, period_start, time_period, variant, obs_value, obs_flag FROM energy_obs_variants
     ORDER BY dataset_id, geo, series_key, period_start, time_period`);
  await db.run(`CREATE TABLE energy_obs_by_period AS
    SELECT dataset_id, time_period, geo, series_key, variant, obs_value, obs_flag FROM energy_obs_variants
     ORDER BY dataset_id, time_period, geo, series_key`);
  await db.run('DROP TABLE energy_obs_variants');
}

export { tableExists };
