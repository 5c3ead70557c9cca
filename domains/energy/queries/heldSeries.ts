// The series variants of a Eurostat dataset (energy_series) held in JavaScript per database, so the
// generic routes choose their series and period without a statement: the variant filter (unit, freq,
// dim.<key>) and "the latest period with a value" over a few hundred series cost more as SQL (binding
// and planning a statement with MAP lambdas, then converting MAP columns) than the answer's rows do.
// Held only where the JavaScript reading is provably the SQL's: every dims value is printable ASCII and
// not null (DuckDB's upper() and byte order then agree with JavaScript's); a dataset with more than
// SERIES_MAX variants, or one that would take the held bytes past HELD_BYTES_MAX, is not held (its
// requests keep the statement).
import type { Database } from '../../../engine/database.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import { ordersAlike } from '../../../engine/heldGuards.ts';

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

/** Most variants of one dataset held (the x100 bench's largest dataset has about 16 000). */
const SERIES_MAX = 50_000;
/** Most bytes held over all datasets of a database (estimated: UTF-16 text plus a fixed cost per variant). */
const HELD_BYTES_MAX = 64 * 2 ** 20;
const VARIANT_OVERHEAD_BYTES = 400;

interface DatabaseSeries {
  /** The datasets the snapshot holds (energy_datasets). */
  datasets: ReadonlySet<string>;
  /** Per held dataset, its variants (null: not held, ask SQL). */
  held: Map<string, Promise<readonly HeldVariant[] | null>>;
  bytes: number;
}

// The datasets are a held view; each dataset's variants are read on first use into it, under their own
// cap (HELD_BYTES_MAX over all datasets, not yet the shared budget: they are read per request's dataset).
const databaseSeries = requiredHeldView<DatabaseSeries>({
  name: 'energy.seriesDatasets',
  sql: { rows: 'SELECT dataset_id FROM energy_datasets' },
  key: ['dataset_id'],
  order: '',
  rowsMax: 100_000,
  bytesMax: HELD_BYTES_MAX,
  build: ({ rows }) => ({ datasets: new Set(rows.map((row) => String(row.dataset_id))), held: new Map(), bytes: 0 }),
  parity: {
    probes: `SELECT dataset_id FROM (SELECT dataset_id FROM energy_datasets UNION ALL SELECT 'not-a-dataset') ORDER BY dataset_id`,
    keyed: 'SELECT count(*) > 0 AS present FROM energy_datasets WHERE dataset_id = $dataset_id',
    answer: (series, probe) => [{ present: series.datasets.has(String(probe.dataset_id)) }],
  },
});

async function readVariants(db: Database, state: DatabaseSeries, dataset: string): Promise<readonly HeldVariant[] | null> {
  const rows = await db.all(
    `SELECT variant, geo, series_key, freq, unit, map_keys(dims) AS dim_keys, map_values(dims) AS dim_values, latest_start, latest_period
       FROM energy_series WHERE dataset_id = $dataset ORDER BY variant LIMIT $cap`,
    { dataset, cap: SERIES_MAX + 1 },
  );
  if (rows.length > SERIES_MAX) return null;
  let bytes = 0;
  const variants: HeldVariant[] = [];
  for (const row of rows) {
    const dimKeys = row.dim_keys as string[];
    const dimValues = row.dim_values as Array<string | null>;
    if (dimValues.some((value) => !ordersAlike(value)) || dimKeys.some((key) => !ordersAlike(key))) return null;
    const values = dimValues as string[];
    const upperDims = new Map<string, string>();
    dimKeys.forEach((key, i) => upperDims.set(key, values[i].toUpperCase()));
    const variant: HeldVariant = {
      variant: Number(row.variant),
      geo: row.geo === null ? null : String(row.geo),
      seriesKey: String(row.series_key),
      freq: String(row.freq),
      unit: row.unit === null ? null : String(row.unit),
      dimKeys,
      dimValues: values,
      upperDims,
      signature: values.filter((_, i) => dimKeys[i] !== 'geo').join('.'),
      latestStart: row.latest_start === null ? null : String(row.latest_start),
      latestPeriod: row.latest_period === null ? null : String(row.latest_period),
    };
    bytes += VARIANT_OVERHEAD_BYTES + 4 * (variant.seriesKey.length + variant.signature.length + dimKeys.join('').length + values.join('').length);
    variants.push(variant);
  }
  if (state.bytes + bytes > HELD_BYTES_MAX) return null;
  state.bytes += bytes;
  return variants;
}

/**
 * The variants of `dataset`: 'unknown' when the snapshot does not hold the dataset, null when they are
 * not held (too many, or text JavaScript might order or upper-case differently: use the statement).
 */
export async function heldVariants(db: Database, dataset: string): Promise<readonly HeldVariant[] | null | 'unknown'> {
  const state = await databaseSeries(db);
  // Only datasets of the snapshot get an entry, so client text cannot grow the map.
  if (!state.datasets.has(dataset)) return 'unknown';
  let variants = state.held.get(dataset);
  if (!variants) {
    variants = readVariants(db, state, dataset);
    state.held.set(dataset, variants);
    variants.catch(() => state.held.delete(dataset));
  }
  return variants;
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
