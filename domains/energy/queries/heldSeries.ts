// The series variants of a Eurostat dataset (energy_series) held in JavaScript per database, so the
// generic routes choose their series and period without a statement: the variant filter (unit, freq,
// dim.<key>) and "the latest period with a value" over a few hundred series cost more as SQL (binding
// and planning a statement with MAP lambdas, then converting MAP columns) than the answer's rows do.
// Declared as a held family (engine/held.ts): one member per dataset, read on its first request, bounded
// per dataset and in all, counted in the held-state budget, checked by the generated parity test
// against the statements it replaces (matchingSeries, LATEST_PERIOD). Held only where the JavaScript
// reading is provably the SQL's (engine/heldGuards.ts): every dims key and value, geo, series_key and
// latest period printable ASCII (dims values not null), so DuckDB's upper() and byte order agree with
// JavaScript's; a dataset refused, over its bounds or the budget keeps its statements.
import type { Database } from '../../../engine/database.ts';
import { estimatedRowBytes, heldFamily, type HeldFamily } from '../../../engine/held.ts';
import { asciiUpper, ordersAlike, ordersAlikeDate } from '../../../engine/heldGuards.ts';
import type { Row } from '../../../engine/json.ts';
import { dimConditions } from './params.ts';

/** One series variant: what energy_series holds for it, dims as the MAP's keys and values in its order. */
export interface HeldVariant {
  variant: number;
  geo: string | null;
  seriesKey: string;
  freq: string;
  unit: string | null;
  dimKeys: readonly string[];
  dimValues: readonly string[];
  /** The dims upper-cased by key (what `upper(dims[$key])` compares). */
  upperDims: ReadonlyMap<string, string>;
  /** The dims' values but geo, joined by '.': the compare route's series signature. */
  signature: string;
  /** period_start of the latest period with a value (YYYY-MM-DD), or null. */
  latestStart: string | null;
  latestPeriod: string | null;
}

/** Series variants of $dataset matching `geoCondition` and the unit, freq ($unit, $freq) and dim.<key> filters (dimConditions' SQL). */
export const matchingSeries = (geoCondition: string, dimsSql: string) =>
  `SELECT variant, geo, series_key, freq, unit, dims, latest_start, latest_period FROM energy_series
    WHERE dataset_id = $dataset AND ${geoCondition}
      AND (CAST($unit AS VARCHAR) IS NULL OR unit = $unit) AND (CAST($freq AS VARCHAR) IS NULL OR freq = $freq)${dimsSql}`;

/** The latest period (by start, then label) with a value among the `matching` series (one row named period, or none). */
export const LATEST_PERIOD = `SELECT latest_period AS period FROM matching WHERE latest_period IS NOT NULL ORDER BY latest_start DESC, latest_period DESC LIMIT 1`;

const VARIANT_COLUMNS = 'variant, geo, series_key, freq, unit, map_keys(dims) AS dim_keys, map_values(dims) AS dim_values, latest_start, latest_period';

/** A held variant as the statements' rows give it (the parity checks compare these). */
function variantRow(v: HeldVariant): Row {
  return {
    variant: v.variant, geo: v.geo, series_key: v.seriesKey, freq: v.freq, unit: v.unit, dim_keys: [...v.dimKeys], dim_values: [...v.dimValues],
    latest_start: v.latestStart, latest_period: v.latestPeriod,
  };
}

/** A row of energy_series as a held variant; null when a guard refuses one of its values. */
function heldVariant(row: Row): HeldVariant | null {
  const dimKeys = row.dim_keys as Row[string][];
  const dimValues = row.dim_values as Row[string][];
  const upperDims = new Map<string, string>();
  for (let i = 0; i < dimKeys.length; i++) {
    const key = dimKeys[i];
    const value = dimValues[i];
    const upper = typeof value === 'string' ? asciiUpper(value) : null;
    if (!ordersAlike(key) || upper === null) return null;
    upperDims.set(key, upper);
  }
  const { geo, series_key, latest_start, latest_period } = row;
  if ((geo !== null && !ordersAlike(geo)) || !ordersAlike(series_key)) return null;
  // Both null (no value) or both ordered as DuckDB orders them.
  if (latest_period === null ? latest_start !== null : !ordersAlike(latest_period) || !ordersAlikeDate(latest_start)) return null;
  const keys = dimKeys as string[];
  const values = dimValues as string[];
  return {
    variant: Number(row.variant),
    geo: geo as string | null,
    seriesKey: series_key,
    freq: String(row.freq),
    unit: row.unit === null ? null : String(row.unit),
    dimKeys: keys,
    dimValues: values,
    upperDims,
    signature: values.filter((_, i) => keys[i] !== 'geo').join('.'),
    latestStart: latest_start as string | null,
    latestPeriod: latest_period as string | null,
  };
}

/** What a held variant keeps beside its row's values: the upper-cased dims (a Map) and the signature. */
function derivedBytes(v: HeldVariant): number {
  let bytes = 64 + 16 + 2 * v.signature.length;
  for (const value of v.upperDims.values()) bytes += 32 + 2 * value.length;
  return bytes;
}

/** The variants probes: per dataset, a dim filter with geo, unit and freq given or not, a value not upper-cased, a key no series has. */
const VARIANT_PROBES = `
  WITH entries AS (SELECT DISTINCT dataset_id, geo, unit, freq, unnest(map_keys(dims)) AS dim_key, unnest(map_values(dims)) AS dim_value FROM energy_series),
  probes AS (
    SELECT dataset_id AS dataset, geo, unit, freq, dim_key AS dim_key_0, upper(dim_value) AS dim_value_0 FROM entries
    UNION SELECT dataset_id, NULL, unit, NULL, dim_key, upper(dim_value) FROM entries
    UNION SELECT dataset_id, NULL, NULL, NULL, dim_key, upper(dim_value) FROM entries
    UNION SELECT dataset_id, geo, NULL, freq, dim_key, lower(dim_value) FROM entries
    UNION SELECT dataset_id, NULL, NULL, NULL, 'no_such_key', upper(dim_value) FROM entries)
  SELECT * FROM (SELECT * FROM probes ORDER BY hash(dataset, geo, unit, freq, dim_key_0, dim_value_0), dataset, geo, unit, freq, dim_key_0, dim_value_0 LIMIT 80)
  UNION ALL SELECT 'not_a_dataset', NULL, NULL, NULL, 'geo', 'DE'`;

/** The latest-period probes: per dataset, geo, unit and freq given or not. */
const PERIOD_PROBES = `
  WITH s AS (SELECT DISTINCT dataset_id, geo, unit, freq FROM energy_series),
  probes AS (
    SELECT dataset_id AS dataset, geo, unit, freq FROM s
    UNION SELECT dataset_id, NULL, unit, freq FROM s
    UNION SELECT dataset_id, geo, NULL, NULL FROM s
    UNION SELECT dataset_id, NULL, NULL, NULL FROM s)
  SELECT * FROM (SELECT * FROM probes ORDER BY hash(dataset, geo, unit, freq), dataset, geo, unit, freq LIMIT 80)
  UNION ALL SELECT 'not_a_dataset', NULL, NULL, NULL`;

/** The geo condition of the latest route (a geo, or all when $geo is NULL), which the checks use. */
const GEO_OR_ALL = '(CAST($geo AS VARCHAR) IS NULL OR geo = $geo)';
const ONE_DIM = dimConditions({ key: 'value' }).sql;

/** The probe's variants under its filters: [] for no such dataset, null when the dataset is not held. */
async function probedVariants(family: HeldFamily<readonly HeldVariant[]>, probe: Row, withDim: boolean): Promise<HeldVariant[] | null> {
  const dataset = String(probe.dataset);
  if (!family.members.has(dataset)) return [];
  const variants = await family.member(dataset);
  if (variants === null) return null;
  const dims = withDim ? [[String(probe.dim_key_0), String(probe.dim_value_0)] as const] : [];
  const keep = variantFilter({ unit: probe.unit as string | null, freq: probe.freq as string | null, dims });
  return variants.filter((v) => (probe.geo === null || v.geo === probe.geo) && keep(v));
}

/** The period row LATEST_PERIOD gives for these variants. */
const periodRows = (variants: readonly HeldVariant[]): Row[] => {
  const period = latestPeriodOf(variants);
  return period === null ? [] : [{ period }];
};

const seriesVariants = heldFamily<readonly HeldVariant[]>({
  name: 'energy.seriesVariants',
  members: 'SELECT dataset_id AS member FROM energy_datasets',
  sql: { variants: `SELECT ${VARIANT_COLUMNS} FROM energy_series WHERE dataset_id = $member ORDER BY variant` },
  count: 'SELECT count(*) AS n FROM energy_series WHERE dataset_id = $member',
  key: ['dataset_id', 'variant'],
  order: 'variant',
  // A dataset's variants (the x100 bench's largest dataset has about 16 000); all held datasets together.
  memberRowsMax: 50_000,
  rowsMax: 1_000_000,
  bytesMax: 64 * 2 ** 20,
  build: ({ variants: rows }) => {
    const variants: HeldVariant[] = [];
    for (const row of rows) {
      const variant = heldVariant(row);
      if (variant === null) return null;
      variants.push(variant);
    }
    return variants;
  },
  bytesOf: (variants, { variants: rows }) => rows.reduce((total, row) => total + estimatedRowBytes(row), 0)
    + variants.reduce((total, v) => total + derivedBytes(v), 0),
  parity: [
    {
      part: 'the datasets listed',
      probes: `SELECT dataset FROM (SELECT dataset_id AS dataset FROM energy_datasets UNION ALL SELECT 'not_a_dataset') ORDER BY dataset`,
      keyed: 'SELECT count(*) > 0 AS present FROM energy_datasets WHERE dataset_id = $dataset',
      answer: (family, probe) => [{ present: family.members.has(String(probe.dataset)) }],
    },
    {
      part: 'variant filter: unit, freq, a dim',
      probes: VARIANT_PROBES,
      keyed: `SELECT ${VARIANT_COLUMNS} FROM (${matchingSeries(GEO_OR_ALL, ONE_DIM)}) ORDER BY variant`,
      answer: async (family, probe) => (await probedVariants(family, probe, true))?.map(variantRow) ?? null,
    },
    {
      part: 'latest period with a value',
      probes: PERIOD_PROBES,
      keyed: `WITH matching AS MATERIALIZED (${matchingSeries(GEO_OR_ALL, '')}) ${LATEST_PERIOD}`,
      answer: async (family, probe) => {
        const variants = await probedVariants(family, probe, false);
        return variants === null ? null : periodRows(variants);
      },
    },
    {
      part: 'latest period with a value, a dim',
      probes: VARIANT_PROBES,
      keyed: `WITH matching AS MATERIALIZED (${matchingSeries(GEO_OR_ALL, ONE_DIM)}) ${LATEST_PERIOD}`,
      answer: async (family, probe) => {
        const variants = await probedVariants(family, probe, true);
        return variants === null ? null : periodRows(variants);
      },
    },
  ],
});

/**
 * The variants of `dataset`: 'unknown' when the snapshot does not hold the dataset, null when they are
 * not held (the family or this dataset over its bounds or the budget, or text JavaScript might order or
 * upper-case differently: use the statement, which also tells an unknown dataset).
 */
export async function heldVariants(db: Database, dataset: string): Promise<readonly HeldVariant[] | null | 'unknown'> {
  const family = await seriesVariants(db);
  if (family === null) return null;
  if (!family.members.has(dataset)) return 'unknown';
  return family.member(dataset, db);
}

/** The variant filter of the generic routes: unit and freq when given, and each dim.<key>=<value> (value upper-cased by the caller). */
export function variantFilter(filters: { unit: string | null; freq: string | null; dims: ReadonlyArray<readonly [string, string]> }): (v: HeldVariant) => boolean {
  return (v) => (filters.unit === null || v.unit === filters.unit) && (filters.freq === null || v.freq === filters.freq)
    && filters.dims.every(([key, value]) => v.upperDims.get(key) === value);
}

/**
 * The latest period with a value among `variants` (by its start, then its label, both descending), as
 * energy_series orders them in SQL (LATEST_PERIOD); null when none has a value.
 */
export function latestPeriodOf(variants: readonly HeldVariant[]): string | null {
  let best: HeldVariant | null = null;
  for (const v of variants) {
    if (v.latestPeriod === null) continue;
    if (best === null || v.latestStart! > best.latestStart! || (v.latestStart === best.latestStart && v.latestPeriod > best.latestPeriod!)) best = v;
  }
  return best === null ? null : best.latestPeriod;
}

/**
 * An answer row's dims object from a MAP's keys and values, in their order (own properties: a key
 * such as `__proto__` in the data stays a key). One builder for the held and the statement paths.
 */
export function dimsRecord(keys: readonly string[], values: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
}

/** The dims object of a held variant's answer rows. */
export function dimsObject(v: HeldVariant): Record<string, string> {
  return dimsRecord(v.dimKeys, v.dimValues);
}
