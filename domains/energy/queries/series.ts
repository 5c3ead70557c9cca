// The generic Eurostat endpoints: datasets, one dataset, countries, series, latest, compare. They serve
// every Eurostat dataset in the snapshot (the energy flagships and any other ingested), published values
// unchanged (JSON numbers, null when missing with the flag saying why). One statement per request: the
// series variants matching the filters (energy_series: unit, freq, dims, latest period), then their
// observations from the lean copy sorted for the question (energy_obs_by_geo for a series,
// energy_obs_by_period for a period's cross-section), dims joined back for the rows answered.
import type { Database } from '../../../engine/database.ts';
import { compareNullsLast } from '../../../engine/heldGuards.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type JsonSchema } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import { parseGeo, parseGeoList, geoParam } from './geo.ts';
import { dimsObject, dimsRecord, heldVariants, LATEST_PERIOD, latestPeriodOf, matchingSeries, variantFilter, type HeldVariant } from './heldSeries.ts';
import {
  COMPARE_GEOS_MAX, datasetIdParam, datasetNotFound, dimConditions, dimParam, freqParam, limitParam, parseDatasetId, parsePeriodLabel,
  periodParam, periodStart, requireDatasetHeld, SERIES_LIMIT_MAX, unitParam,
} from './params.ts';

const number: JsonSchema = { type: 'number' };
const dimsSchema: JsonSchema = { type: 'object', additionalProperties: { type: 'string' }, description: 'every dimension of the series (key -> code)' };
const strings = listOf(text);

/** {k: [..], v: [..]} lists of a MAP -> one object per row under `dims`. */
function withDims(rows: Row[]): Row[] {
  return rows.map(({ dim_keys, dim_values, ...rest }) => {
    return { ...rest, dims: dimsRecord(dim_keys as string[], dim_values as string[]) };
  });
}

const DIM_COLUMNS = 'map_keys(m.dims) AS dim_keys, map_values(m.dims) AS dim_values';

// ---------- datasets ----------

const datasetItem = object({
  dataset_id: text, row_count: integer, series_count: integer, geo_count: integer, period_min: nullable(text), period_max: nullable(text),
});

export const listEnergyDatasets = defineRoute<{ q?: string; limit: number }>({
  id: 'listEnergyDatasets',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/datasets'],
  examples: ['/api/v1/energy/datasets', '/api/v1/energy/datasets?q=nrg_ind&limit=10'],
  summary: 'Eurostat datasets in the snapshot with their size and period range',
  description:
    'Every Eurostat dataset held (the energy flagships nrg_bal_s, nrg_cb_e, nrg_ind_ei, nrg_ind_ren, nrg_pc_204 and any other ingested), ' +
    'ordered by dataset_id: observation rows, distinct series, distinct geos, first and last period (by period start). ' +
    '`q` keeps the ids starting with it (any case).',
  paid: true,
  params: {
    q: { in: ['query'], description: 'Prefix of dataset_id (any case).', schema: { type: 'string', minLength: 1, maxLength: 64, examples: ['nrg_'] } },
    limit: limitParam(100),
  },
  response: object({ endpoint: { const: 'energy_datasets' }, q: nullable(text), count: integer, datasets: listOf(datasetItem) }),
  listRows: (body) => body.datasets as Row[],
  listColumns: () => Object.keys(datasetItem.properties!),
  async handle({ q, limit }, { db }) {
    const prefix = q === undefined ? null : q.trim().toLowerCase();
    const rows = await db.all(
      `SELECT dataset_id, row_count, series_count, geo_count, period_min, period_max FROM energy_datasets
        WHERE CAST($prefix AS VARCHAR) IS NULL OR starts_with(dataset_id, $prefix) ORDER BY dataset_id LIMIT $limit`,
      { prefix, limit },
    );
    return { endpoint: 'energy_datasets', q: prefix, count: rows.length, datasets: rows };
  },
});

export const getEnergyDataset = defineRoute<{ dataset_id: string }>({
  id: 'getEnergyDataset',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/datasets/{dataset_id}'],
  examples: ['/api/v1/energy/datasets/nrg_bal_s', '/api/v1/energy/datasets/NRG_PC_204'],
  summary: 'One Eurostat dataset: its frequencies, units and dimension keys',
  description:
    'The frequencies and units present (sorted), the dimension keys in the file\'s order (the keys dim.<key> filters take), and the size ' +
    'and period range. An unknown dataset is a 404; a malformed code a 400.',
  paid: true,
  params: { dataset_id: datasetIdParam('path') },
  response: object({
    endpoint: { const: 'energy_dataset' }, dataset_id: text, freqs: strings, units: strings, dimension_keys: strings,
    row_count: integer, series_count: integer, geo_count: integer, period_min: nullable(text), period_max: nullable(text),
  }),
  async handle({ dataset_id }, { db }) {
    const id = parseDatasetId(dataset_id);
    const [row] = await db.all(
      `SELECT dataset_id, freqs, units, dimension_keys, row_count, series_count, geo_count, period_min, period_max FROM energy_datasets WHERE dataset_id = $id`,
      { id },
    );
    if (!row) throw datasetNotFound(id);
    return { endpoint: 'energy_dataset', ...row };
  },
});

// ---------- countries ----------

const countryItem = object({ geo: text, name: nullable(text), row_count: integer, dataset_count: integer });

export const listEnergyCountries = defineRoute<{ limit: number }>({
  id: 'listEnergyCountries',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/countries'],
  examples: ['/api/v1/energy/countries', '/api/v1/energy/countries?limit=5'],
  summary: 'Geos with Eurostat data: observation rows per geo',
  description:
    'Every geo code of the Eurostat datasets held (countries as Eurostat writes them, Greece EL, and aggregates such as EU27_2020), ordered by code, ' +
    'with its English name where it is a country or a known aggregate, its observation rows and the number of datasets it appears in.',
  paid: true,
  params: { limit: limitParam(100) },
  response: object({ endpoint: { const: 'energy_countries' }, count: integer, countries: listOf(countryItem) }),
  listRows: (body) => body.countries as Row[],
  listColumns: () => Object.keys(countryItem.properties!),
  async handle({ limit }, { db }) {
    const rows = await db.all('SELECT geo, row_count, dataset_count FROM energy_countries ORDER BY geo LIMIT $limit', { limit });
    const countries = rows.map((row) => {
      let name: string | null = null;
      try {
        name = parseGeo(String(row.geo), 'geo').name;
      } catch {
        name = null;
      }
      return { geo: row.geo, name, row_count: row.row_count, dataset_count: row.dataset_count };
    });
    return { endpoint: 'energy_countries', count: countries.length, countries };
  },
});

// ---------- series ----------

interface SeriesParams {
  dataset_id: string;
  geo: string;
  unit?: string;
  freq?: string;
  period_from?: string;
  period_to?: string;
  dim?: Record<string, string>;
  limit: number;
}

/** The start of the period after a label (the exclusive end of `period_to`). */
function periodAfter(label: string): string {
  const start = periodStart(label);
  const [y, m] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  const months = /-Q/.test(label) ? 3 : /-S/.test(label) ? 6 : /^\d{4}$/.test(label) ? 12 : 1;
  const next = new Date(Date.UTC(y, m - 1 + months, 1));
  return next.toISOString().slice(0, 10);
}

const observationItem = object({
  series_key: text, dims: dimsSchema, unit: nullable(text), freq: text, time_period: text, obs_value: nullable(number), obs_flag: nullable(text),
});

export const getEnergySeries = defineRoute<SeriesParams>({
  id: 'getEnergySeries',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/series'],
  examples: [
    '/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=AT&dim.nrg_bal=REN',
    '/api/v1/energy/series?dataset_id=nrg_bal_s&geo=de&unit=KTOE&dim.siec=TOTAL&dim.nrg_bal=GIC&period_from=2015&period_to=2020',
    '/api/v1/energy/series?dataset_id=nrg_pc_204&geo=GR&freq=S&limit=20',
  ],
  summary: 'Observations of a Eurostat dataset for one geo',
  description:
    'Every observation of the dataset for the geo (ISO2 any case, Greece EL or GR, or an aggregate such as EU27_2020; the reply names the code used), ' +
    'optionally narrowed by unit, freq (A, S, Q, M), an inclusive period window (period_from / period_to: YYYY, YYYY-Sn, YYYY-Qn, YYYY-MM; ' +
    'a year as period_to includes all of that year\'s sub-periods) and dim.<key>=<value> filters on any dimension. Ordered by series_key then ' +
    'period; `limit` (default 200, at most 2000) cuts the list, `total` counts the matches. Values are as published (JSON numbers); a ' +
    'missing value is null with its flag. A valid geo without data gives count 0; an unknown dataset is a 404.',
  paid: true,
  params: {
    dataset_id: datasetIdParam(),
    geo: geoParam('Geo: ISO 3166-1 alpha-2 (any case; Greece EL or GR) or a Eurostat aggregate (EU27_2020, EA20).', { required: true, example: 'AT' }),
    unit: unitParam,
    freq: freqParam,
    period_from: periodParam('First period, inclusive (YYYY, YYYY-Sn, YYYY-Qn or YYYY-MM).', '2015'),
    period_to: periodParam('Last period, inclusive (YYYY, YYYY-Sn, YYYY-Qn or YYYY-MM).', '2023'),
    dim: dimParam,
    limit: limitParam(200, SERIES_LIMIT_MAX),
  },
  response: object({
    endpoint: { const: 'energy_series' }, dataset_id: text, geo: text, geo_name: nullable(text),
    filters: object({ unit: nullable(text), freq: nullable(text), period_from: nullable(text), period_to: nullable(text), dims: dimsSchema }),
    count: integer, total: integer, observations: listOf(observationItem),
  }),
  listRows: (body) => (body.observations as Row[]).map(({ dims, ...rest }) => ({ ...rest, dims: JSON.stringify(dims) })),
  listColumns: () => Object.keys(observationItem.properties!),
  async handle(params, { db }) {
    const geo = parseGeo(params.geo, 'geo');
    const from = params.period_from === undefined ? null : parsePeriodLabel(params.period_from, 'period_from');
    const to = params.period_to === undefined ? null : parsePeriodLabel(params.period_to, 'period_to');
    if (from !== null && to !== null && periodStart(from) > periodStart(to)) throw invalidParameter('period_from', `period_from (${from}) is after period_to (${to})`);
    const dataset = parseDatasetId(params.dataset_id);
    const filters = { unit: params.unit ?? null, freq: params.freq ?? null, period_from: from, period_to: to, dims: params.dim ?? {} };
    const answer = (count: number, total: number, observations: Row[]) => ({
      endpoint: 'energy_series', dataset_id: dataset, geo: geo.code, geo_name: geo.name, filters, count, total, observations,
    });
    const variants = await heldVariants(db, dataset);
    if (variants === 'unknown') throw datasetNotFound(dataset);
    const matching = variants === null ? null : matchingVariants(variants, (v) => v.geo === geo.code, params);
    if (matching !== null && matching.length === 0) return answer(0, 0, []);
    if (matching !== null && matching.length <= VARIANTS_LISTED_MAX) {
      // The held variants' observations of the geo, paged and counted in one plain statement; dims from the held variants.
      const listed = inList('variant', 'variant', matching.map((v) => v.variant));
      const byVariant = new Map(matching.map((v) => [v.variant, v]));
      const rows = await db.all(
        `SELECT variant, series_key, time_period, obs_value, obs_flag, count(*) OVER ()::INTEGER AS total FROM energy_obs_by_geo
          WHERE dataset_id = $dataset AND geo = $geo AND ${listed.sql}${from === null ? '' : ' AND period_start >= CAST($from AS DATE)'}${to === null ? '' : ' AND period_start < CAST($to AS DATE)'}
          ORDER BY series_key, period_start, time_period LIMIT $limit`,
        {
          dataset, geo: geo.code, ...listed.bindings, limit: params.limit,
          ...(from === null ? {} : { from: periodStart(from) }), ...(to === null ? {} : { to: periodAfter(to) }),
        },
      );
      const observations = rows.map((row) => {
        const v = byVariant.get(Number(row.variant))!;
        return { series_key: row.series_key, unit: v.unit, freq: v.freq, time_period: row.time_period, obs_value: row.obs_value, obs_flag: row.obs_flag, dims: dimsObject(v) };
      });
      return answer(observations.length, rows.length > 0 ? Number(rows[0].total) : 0, observations);
    }
    const dims = dimConditions(params.dim);
    const bindings = {
      dataset, geo: geo.code, unit: params.unit ?? null, freq: params.freq ?? null,
      from: from === null ? null : periodStart(from), to: to === null ? null : periodAfter(to), ...dims.bindings,
    };
    // The page of the geo's range of observations (the matches' count as a window over all of them, before
    // LIMIT), then the page's dims from its series.
    const rows = await db.all(
      `WITH matching AS MATERIALIZED (${matchingSeries('geo = $geo', dims.sql)}),
       page AS (
         SELECT series_key, period_start, time_period, variant, obs_value, obs_flag, count(*) OVER ()::INTEGER AS total
           FROM energy_obs_by_geo
          WHERE dataset_id = $dataset AND geo = $geo AND variant IN (SELECT variant FROM matching)
            AND (CAST($from AS DATE) IS NULL OR period_start >= CAST($from AS DATE)) AND (CAST($to AS DATE) IS NULL OR period_start < CAST($to AS DATE))
          ORDER BY series_key, period_start, time_period LIMIT $limit)
       SELECT p.series_key, ${DIM_COLUMNS}, m.unit, m.freq, p.time_period, p.obs_value, p.obs_flag, p.total
         FROM page p JOIN matching m USING (variant)
        ORDER BY p.series_key, p.period_start, p.time_period`,
      { ...bindings, limit: params.limit },
    );
    if (rows.length === 0) await requireDatasetHeld(db, dataset);
    const total = rows.length > 0 ? Number(rows[0].total) : 0;
    const observations = withDims(rows.map(({ total: _total, ...row }) => row));
    return {
      endpoint: 'energy_series', dataset_id: dataset, geo: geo.code, geo_name: geo.name,
      filters: { unit: params.unit ?? null, freq: params.freq ?? null, period_from: from, period_to: to, dims: params.dim ?? {} },
      count: observations.length, total, observations,
    };
  },
});

// ---------- latest ----------

interface LatestParams {
  dataset_id: string;
  geo?: string;
  unit?: string;
  freq?: string;
  dim?: Record<string, string>;
  limit: number;
}

const latestItem = object({ geo: nullable(text), series_key: text, dims: dimsSchema, unit: nullable(text), obs_value: nullable(number), obs_flag: nullable(text) });

export const getEnergyLatest = defineRoute<LatestParams>({
  id: 'getEnergyLatest',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/latest'],
  examples: ['/api/v1/energy/latest?dataset_id=nrg_ind_ren&dim.nrg_bal=REN', '/api/v1/energy/latest?dataset_id=nrg_cb_e&geo=FR&unit=GWH'],
  summary: 'The latest period of a dataset and its observations',
  description:
    'The latest period (by start date) with a published value among the observations matching geo, unit, freq and dim.<key> filters ' +
    '(give freq when a dataset mixes frequencies), and every matching observation of that period, ordered by geo then series_key; ' +
    '`limit` default 100 (at most 1000), `total` counts them. Values as published. period is null when nothing matches.',
  paid: true,
  params: {
    dataset_id: datasetIdParam(),
    geo: geoParam('Geo (ISO2 any case, Greece EL or GR, or an aggregate); all geos when absent.'),
    unit: unitParam,
    freq: freqParam,
    dim: dimParam,
    limit: limitParam(100),
  },
  response: object({
    endpoint: { const: 'energy_latest' }, dataset_id: text, geo: nullable(text), period: nullable(text), count: integer, total: integer,
    observations: listOf(latestItem),
  }),
  listRows: (body) => (body.observations as Row[]).map(({ dims, ...rest }) => ({ ...rest, dims: JSON.stringify(dims) })),
  listColumns: () => Object.keys(latestItem.properties!),
  async handle(params, { db }) {
    const geo = params.geo === undefined ? null : parseGeo(params.geo, 'geo');
    const dataset = parseDatasetId(params.dataset_id);
    const variants = await heldVariants(db, dataset);
    if (variants === 'unknown') throw datasetNotFound(dataset);
    const matching = variants === null ? null : matchingVariants(variants, (v) => geo === null || v.geo === geo.code, params);
    if (matching !== null && matching.length <= VARIANTS_LISTED_MAX) return latestHeld(db, { dataset, geo: geo?.code ?? null, limit: params.limit }, matching);
    const dims = dimConditions(params.dim);
    const bindings = { dataset, geo: geo?.code ?? null, unit: params.unit ?? null, freq: params.freq ?? null, ...dims.bindings };
    // The latest period with a value among the matching series, then their observations of that period.
    const rows = await db.all(
      `WITH matching AS MATERIALIZED (${matchingSeries('(CAST($geo AS VARCHAR) IS NULL OR geo = $geo)', dims.sql)}),
       latest AS (${LATEST_PERIOD})
       SELECT m.geo, m.series_key, ${DIM_COLUMNS}, m.unit, o.obs_value, o.obs_flag, count(*) OVER ()::INTEGER AS total, l.period
         FROM energy_obs_by_period o JOIN latest l ON o.time_period = l.period JOIN matching m ON m.variant = o.variant
        WHERE o.dataset_id = $dataset AND (CAST($geo AS VARCHAR) IS NULL OR o.geo = $geo)
        ORDER BY m.geo NULLS LAST, m.series_key LIMIT $limit`,
      { ...bindings, limit: params.limit },
    );
    if (rows.length === 0) {
      await requireDatasetHeld(db, dataset);
      return { endpoint: 'energy_latest', dataset_id: dataset, geo: geo?.code ?? null, period: null, count: 0, total: 0, observations: [] };
    }
    const total = Number(rows[0].total);
    const period = rows[0].period;
    const observations = withDims(rows.map(({ total: _total, period: _period, ...row }) => row));
    return { endpoint: 'energy_latest', dataset_id: dataset, geo: geo?.code ?? null, period, count: observations.length, total, observations };
  },
});

// ---------- compare ----------

interface CompareParams {
  dataset_id: string;
  geos: string;
  period?: string;
  unit?: string;
  freq?: string;
  dim?: Record<string, string>;
}

const compareItem = object({
  geo: text, series_key: text, dims: dimsSchema, unit: nullable(text), obs_value: nullable(number), obs_flag: nullable(text), rank: nullable(integer),
});

export const compareEnergy = defineRoute<CompareParams>({
  id: 'compareEnergy',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/compare'],
  examples: ['/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=DE,FR,SE,EL&dim.nrg_bal=REN', '/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=at,de&period=2020&dim.nrg_bal=REN'],
  summary: 'Several geos side by side in one period, ranked',
  description:
    'The observations of up to 15 geos (comma-separated, any case; Greece EL or GR; duplicates dropped) in one period: `period` when given, ' +
    'else the latest period (by start date) in which one of the geos has a value under the unit, freq and dim.<key> filters. Within each ' +
    'series (the same codes on every dimension but geo) geos are ranked by value, 1 = highest; ties share a rank (1, 2, 2, 4); a missing ' +
    'value has rank null. Ordered by series_key without geo, rank, geo. `missing_geos` lists the geos with no observation in that period.',
  paid: true,
  params: {
    dataset_id: datasetIdParam(),
    geos: { in: ['query'], required: true, description: `Comma-separated geos, at most ${COMPARE_GEOS_MAX}.`, schema: { type: 'string', minLength: 1, maxLength: 300, examples: ['DE,FR,IT'] } },
    period: periodParam('Period (YYYY, YYYY-Sn, YYYY-Qn or YYYY-MM); default the latest.'),
    unit: unitParam,
    freq: freqParam,
    dim: dimParam,
  },
  response: object({
    endpoint: { const: 'energy_compare' }, dataset_id: text, period: nullable(text), geos: strings, missing_geos: strings, count: integer,
    observations: listOf(compareItem),
  }),
  listRows: (body) => (body.observations as Row[]).map(({ dims, ...rest }) => ({ ...rest, dims: JSON.stringify(dims) })),
  listColumns: () => Object.keys(compareItem.properties!),
  async handle(params, { db }) {
    const geos = parseGeoList(params.geos, 'geos', COMPARE_GEOS_MAX).map((g) => g.code);
    const requested = params.period === undefined ? null : parsePeriodLabel(params.period, 'period');
    const dataset = parseDatasetId(params.dataset_id);
    const variants = await heldVariants(db, dataset);
    if (variants === 'unknown') throw datasetNotFound(dataset);
    const question = { dataset, geos, requested, unit: params.unit ?? null, freq: params.freq ?? null, dim: params.dim };
    return variants === null ? compareByStatement(db, question) : compareHeld(db, question, variants);
  },
});

interface CompareQuestion {
  dataset: string;
  geos: string[];
  requested: string | null;
  unit: string | null;
  freq: string | null;
  dim?: Record<string, string>;
}

/** compareEnergy in one statement: for a dataset whose variants are not held (and the tests' independent answer). */
export async function compareByStatement(db: Database, { dataset, geos, requested, unit, freq, dim }: CompareQuestion) {
  const dims = dimConditions(dim);
  const bindings = { dataset, geos: geos.join(','), unit, freq, ...dims.bindings };
  // The period asked for (a constant the scan prunes on), else the latest with a value among the matching
  // series; then the matching series' observations of that period, ranked.
  const chosen = requested === null ? LATEST_PERIOD : 'SELECT CAST($period AS VARCHAR) AS period';
  const rows = await db.all(
    `WITH matching AS MATERIALIZED (${matchingSeries(`list_contains(string_split($geos, ','), geo)`, dims.sql)}),
     chosen AS (${chosen})
     SELECT geo, series_key, ${DIM_COLUMNS}, unit, obs_value, obs_flag,
        CASE WHEN obs_value IS NOT NULL THEN rank() OVER (PARTITION BY signature ORDER BY obs_value DESC NULLS LAST) END::INTEGER AS rank, period
      FROM (SELECT m.geo, m.series_key, m.dims, m.unit, o.obs_value, o.obs_flag, c.period,
                   array_to_string(list_transform(list_filter(map_entries(m.dims), e -> e.key <> 'geo'), e -> e.value), '.') AS signature
              FROM energy_obs_by_period o JOIN chosen c ON o.time_period = c.period JOIN matching m ON m.variant = o.variant
             WHERE o.dataset_id = $dataset AND list_contains(string_split($geos, ','), o.geo)${requested === null ? '' : ' AND o.time_period = $period'}) m
     ORDER BY signature, rank NULLS LAST, geo`,
    requested === null ? bindings : { ...bindings, period: requested },
  );
  if (rows.length === 0) await requireDatasetHeld(db, dataset);
  // Rows exist whenever a latest period was found (the observation that gave it matches), so no rows and no period asked = none.
  const period = rows.length > 0 ? rows[0].period : requested;
  const observations = withDims(rows.map(({ period: _period, ...row }) => row));
  const present = new Set(observations.map((o) => o.geo));
  return {
    endpoint: 'energy_compare', dataset_id: dataset, period, geos, missing_geos: geos.filter((g) => !present.has(g)),
    count: observations.length, observations,
  };
}

/** Placeholders for a list of values (`column IN ($p_0, ...)`), padded to a power of two with the last value: few distinct statements. */
function inList(column: string, name: string, values: readonly (string | number)[]): { sql: string; bindings: Record<string, string | number> } {
  let size = 1;
  while (size < values.length) size *= 2;
  const padded = Array.from({ length: size }, (_, i) => values[Math.min(i, values.length - 1)]);
  return {
    sql: `${column} IN (${padded.map((_, i) => `$${name}_${i}`).join(', ')})`,
    bindings: Object.fromEntries(padded.map((value, i) => [`${name}_${i}`, value])),
  };
}

/** Above this many matching variants the period's rows are read by geo instead of by variant. */
const VARIANTS_LISTED_MAX = 64;

/**
 * compareEnergy over the dataset's held variants (heldSeries.ts): the matching variants and the period
 * in JavaScript, then one plain read of their observations of that period; ranks and order as the
 * statement gives them (rank() within the signature by value descending, nulls unranked; ordered by
 * signature, rank nulls last, geo; then series_key and variant, which the statement left open).
 */
async function compareHeld(
  db: Database,
  q: CompareQuestion,
  variants: readonly HeldVariant[],
) {
  const geoSet = new Set(q.geos);
  const dims = Object.entries(q.dim ?? {}).map(([key, value]) => [key, value.trim().toUpperCase()] as const);
  const keep = variantFilter({ unit: q.unit, freq: q.freq, dims });
  const matching = variants.filter((v) => v.geo !== null && geoSet.has(v.geo) && keep(v));
  const period = q.requested ?? latestPeriodOf(matching);
  const empty = { endpoint: 'energy_compare', dataset_id: q.dataset, period: q.requested, geos: q.geos, missing_geos: q.geos, count: 0, observations: [] };
  if (period === null || matching.length === 0) return empty;
  const byVariant = new Map(matching.map((v) => [v.variant, v]));
  const filter = matching.length <= VARIANTS_LISTED_MAX
    ? inList('variant', 'variant', matching.map((v) => v.variant))
    : inList('geo', 'geo', q.geos);
  const obs = await db.all(
    `SELECT variant, obs_value, obs_flag FROM energy_obs_by_period WHERE dataset_id = $dataset AND time_period = $period AND ${filter.sql}`,
    { dataset: q.dataset, period, ...filter.bindings },
  );
  const rows: Array<{ v: HeldVariant; raw: Row[string]; value: number | null; flag: Row[string]; rank: number | null }> = [];
  for (const row of obs) {
    const v = byVariant.get(Number(row.variant));
    if (v) rows.push({ v, raw: row.obs_value, value: row.obs_value === null ? null : Number(row.obs_value), flag: row.obs_flag, rank: null });
  }
  if (rows.length === 0) return empty;
  // rank() within each signature: 1 + the values strictly above.
  const bySignature = new Map<string, number[]>();
  for (const r of rows) {
    if (r.value === null) continue;
    const values = bySignature.get(r.v.signature);
    if (values) values.push(r.value);
    else bySignature.set(r.v.signature, [r.value]);
  }
  for (const r of rows) {
    if (r.value === null) continue;
    let above = 0;
    for (const other of bySignature.get(r.v.signature)!) if (other > r.value) above++;
    r.rank = above + 1;
  }
  // Printable ASCII only (the held variants' guard): JavaScript's string order is DuckDB's byte order.
  rows.sort((a, b) => compareNullsLast(a.v.signature, b.v.signature) || compareNullsLast(a.rank, b.rank)
    || compareNullsLast(a.v.geo, b.v.geo) || compareNullsLast(a.v.seriesKey, b.v.seriesKey) || a.v.variant - b.v.variant);
  const observations = rows.map(({ v, raw, flag, rank }) => ({
    geo: v.geo, series_key: v.seriesKey, unit: v.unit, obs_value: raw, obs_flag: flag, rank, dims: dimsObject(v),
  }));
  const present = new Set(observations.map((o) => o.geo));
  return {
    endpoint: 'energy_compare', dataset_id: q.dataset, period, geos: q.geos, missing_geos: q.geos.filter((g) => !present.has(g)),
    count: observations.length, observations,
  };
}

/** The held variants a generic route's filters keep: `geoKept`, then unit, freq and dim.<key>=<value> (values upper-cased as dimConditions binds them). */
function matchingVariants(
  variants: readonly HeldVariant[],
  geoKept: (v: HeldVariant) => boolean,
  params: { unit?: string; freq?: string; dim?: Record<string, string> },
): HeldVariant[] {
  const dims = Object.entries(params.dim ?? {}).map(([key, value]) => [key, value.trim().toUpperCase()] as const);
  const keep = variantFilter({ unit: params.unit ?? null, freq: params.freq ?? null, dims });
  return variants.filter((v) => geoKept(v) && keep(v));
}

/**
 * getEnergyLatest over a few held variants: the latest period among them in JavaScript, then one plain
 * read of their observations of that period, ordered by geo (nulls last) and series_key as the
 * statement orders them (then variant, which it left open), counted and cut to `limit`.
 */
async function latestHeld(db: Database, q: { dataset: string; geo: string | null; limit: number }, matching: readonly HeldVariant[]) {
  const period = latestPeriodOf(matching);
  const empty = { endpoint: 'energy_latest', dataset_id: q.dataset, geo: q.geo, period: null, count: 0, total: 0, observations: [] };
  if (period === null) return empty;
  const listed = inList('variant', 'variant', matching.map((v) => v.variant));
  const byVariant = new Map(matching.map((v) => [v.variant, v]));
  const rows = (await db.all(
    `SELECT variant, obs_value, obs_flag FROM energy_obs_by_period WHERE dataset_id = $dataset AND time_period = $period AND ${listed.sql}`,
    { dataset: q.dataset, period, ...listed.bindings },
  )).map((row) => ({ v: byVariant.get(Number(row.variant))!, row }));
  if (rows.length === 0) return empty;
  // Printable ASCII only (the held variants' guard): JavaScript's string order is DuckDB's byte order; geo NULLS LAST.
  rows.sort((a, b) => compareNullsLast(a.v.geo, b.v.geo) || compareNullsLast(a.v.seriesKey, b.v.seriesKey) || a.v.variant - b.v.variant);
  const observations = rows.slice(0, q.limit).map(({ v, row }) => ({
    geo: v.geo, series_key: v.seriesKey, unit: v.unit, obs_value: row.obs_value, obs_flag: row.obs_flag, dims: dimsObject(v),
  }));
  return { endpoint: 'energy_latest', dataset_id: q.dataset, geo: q.geo, period, count: observations.length, total: rows.length, observations };
}
