// Rankings of countries on one metric, and the coverage report of the flagship datasets and ETS.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type JsonSchema } from '../../../queries/catalog.ts';
import { enumOf, integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import { COMPLETENESS_MAX_LAG_YEARS, EU27, FLAGSHIP_DATASETS, LOWER_IS_BETTER, RANKING_METRICS, RANKINGS_MIN_EU27, type RankingMetric } from './constants.ts';
import { parseGeoList } from './geo.ts';
import { heldRankings, rankHeld, type RankedPage } from './heldRankings.ts';
import { limitParam } from './params.ts';

const number: JsonSchema = { type: 'number' };
const RANKINGS_GEOS_MAX = 100;

interface RankingsParams {
  metric: RankingMetric;
  geos?: string;
  limit: number;
}

const rankingItem = object({ rank: integer, geo: text, value: number, period: integer, percentile: nullable(number) });

export const getEnergyRankings = defineRoute<RankingsParams>({
  id: 'getEnergyRankings',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/rankings'],
  examples: ['/api/v1/energy/rankings?metric=renewables_share', '/api/v1/energy/rankings?metric=import_dependency_pct&limit=5', '/api/v1/energy/rankings?metric=ets_per_gic&geos=DE,PL,FR,SE'],
  summary: 'Countries ranked on an energy metric, with their percentile versus EU27',
  description:
    'metric: import_dependency_pct ((IMP - EXP) / GAE * 100, TOTAL KTOE, 2 decimals), self_sufficiency_pct (GEP / (GEP + IMP - EXP) * 100, E7000 GWh, ' +
    `2 decimals), renewables_share (nrg_ind_ren REN, %, as published), ets_emissions (verified ETS emissions of the country's registry, t CO2e), ets_per_gic ` +
    `(ETS t CO2e per ktoe of GIC, 2 decimals). Values are those of the metric's latest year with values for at least ${RANKINGS_MIN_EU27} EU27 countries ` +
    '(`period`; null with an empty list when no year qualifies). geos: comma-separated ISO2 (default EU27; at most 100); geos without a value that ' +
    'year are listed in `missing_geos`. rank 1 = highest value, except import_dependency_pct and ets_per_gic where rank 1 = lowest; ties share a rank ' +
    '(1, 2, 2, 4) and are listed by geo. percentile = share of the EU27 countries with a value that year whose value is worse than or equal to this one ' +
    '(lower for higher-is-better metrics, higher otherwise), 0..100, 2 decimals (so the best EU27 country has 100). `limit` default 40 (at most 1000).',
  paid: true,
  params: {
    metric: { in: ['query'], required: true, description: 'The metric ranked.', schema: { type: 'string', enum: [...RANKING_METRICS] }, normalize: 'lower' },
    geos: { in: ['query'], description: 'Comma-separated geos (default the EU27 countries).', schema: { type: 'string', minLength: 1, maxLength: 1200, examples: ['DE,FR,IT,PL'] } },
    limit: limitParam(40),
  },
  response: object({
    endpoint: { const: 'energy_rankings' }, metric: text, period: nullable(integer), order: enumOf('highest_first', 'lowest_first'),
    count: integer, missing_geos: listOf(text), rankings: listOf(rankingItem),
  }),
  listRows: (body) => body.rankings as Row[],
  listColumns: () => Object.keys(rankingItem.properties!),
  async handle({ metric, geos, limit }, { db }) {
    const codes = geos === undefined ? [...EU27] : parseGeoList(geos, 'geos', RANKINGS_GEOS_MAX).map((g) => g.code);
    const lowerFirst = LOWER_IS_BETTER.has(metric);
    const held = await heldRankings(db);
    const { period, present, rankings } = held ? rankHeld(held, metric, codes, lowerFirst, limit) : await rankByStatement(db, metric, codes, lowerFirst, limit);
    return {
      endpoint: 'energy_rankings', metric, period, order: lowerFirst ? 'lowest_first' : 'highest_first',
      count: rankings.length, missing_geos: codes.filter((c) => !present.has(c)), rankings,
    };
  },
});

/** The ranked page as one statement: the metric's period, every requested geo held (for missing_geos) and the page (heldRankings.ts holds the same). */
export async function rankByStatement(db: Database, metric: string, geos: readonly string[], lowerFirst: boolean, limit: number): Promise<RankedPage> {
  const rows = await db.all(
    `WITH ranked AS (
       SELECT rank() OVER (ORDER BY value ${lowerFirst ? 'ASC' : 'DESC'})::INTEGER AS rank, geo, value, period, percentile
         FROM energy_rankings WHERE metric = $metric AND list_contains(string_split($geos, ','), geo))
     SELECT (SELECT period FROM energy_metric_periods WHERE metric = $metric) AS metric_period, (SELECT list(geo) FROM ranked) AS present,
            r.rank, r.geo, r.value, r.period, r.percentile
       FROM (SELECT 1) LEFT JOIN (SELECT * FROM ranked ORDER BY rank, geo LIMIT $limit) r ON true
      ORDER BY r.rank, r.geo`,
    { metric, geos: geos.join(','), limit },
  );
  const [{ metric_period: period, present }] = rows;
  return {
    period: (period as number | null) ?? null,
    present: new Set((present as string[] | null) ?? []),
    rankings: rows.filter((r) => r.geo !== null).map(({ rank, geo, value, period, percentile }) => ({ rank, geo, value, period, percentile })),
  };
}

const status = enumOf('pass', 'warn', 'fail');

export const getEnergyCompleteness = defineRoute<Record<string, never>>({
  id: 'getEnergyCompleteness',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/completeness'],
  examples: ['/api/v1/energy/completeness'],
  summary: 'Coverage of the flagship energy datasets and ETS emissions across the EU27',
  description:
    `For each flagship dataset (${FLAGSHIP_DATASETS.join(', ')}) and ets (verified emissions of the country's registry) x EU27 country: pass when the ` +
    `country's latest period with a value is at most ${COMPLETENESS_MAX_LAG_YEARS} years older than the dataset's newest period (compared by period ` +
    'start: 2022-S2 against 2024-S2 passes, 2022-S1 warns), warn when older, fail when absent. summary counts the cells; status = complete when ' +
    'there is no fail and no warn, partial when no fail, incomplete otherwise. `datasets` gives each dataset\'s newest period and counts; `details` ' +
    'lists the non-pass cells by dataset then geo.',
  paid: true,
  params: {},
  response: object({
    endpoint: { const: 'energy_completeness' }, status: enumOf('complete', 'partial', 'incomplete'),
    summary: object({ fail_count: integer, warn_count: integer, pass_count: integer }),
    datasets: listOf(object({ dataset_id: text, newest_period: nullable(text), pass_count: integer, warn_count: integer, fail_count: integer })),
    details: listOf(object({ dataset_id: text, geo: text, status, latest_period: nullable(text) })),
  }),
  listRows: (body) => body.details as Row[],
  listColumns: () => ['dataset_id', 'geo', 'status', 'latest_period'],
  async handle(_params, { db }) {
    const [lists] = await db.all('SELECT datasets, details FROM energy_completeness_summary');
    const datasets = (lists?.datasets ?? []) as Row[];
    const details = (lists?.details ?? []) as Row[];
    const sum = (key: string) => datasets.reduce((s, d) => s + Number(d[key]), 0);
    const summary = { fail_count: sum('fail_count'), warn_count: sum('warn_count'), pass_count: sum('pass_count') };
    return {
      endpoint: 'energy_completeness',
      status: summary.fail_count === 0 && summary.warn_count === 0 ? 'complete' : summary.fail_count === 0 ? 'partial' : 'incomplete',
      summary, datasets, details,
    };
  },
});
