// Parameters shared by the energy endpoints.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import type { Database } from '../../../engine/database.ts';

/** Largest `limit` where the specification gives only a default. */
export const OPEN_LIMIT_MAX = 1000;
export const SERIES_LIMIT_MAX = 2000;
export const COMPARE_GEOS_MAX = 15;
export const DIM_FILTERS_MAX = 10;

export function limitParam(defaultValue: number, maximum = OPEN_LIMIT_MAX): ParamSpec {
  return {
    in: ['query'],
    description: `Most items returned (default ${defaultValue}, at most ${maximum}).`,
    schema: { type: 'integer', minimum: 1, maximum, default: defaultValue },
  };
}

const DATASET_ID = /^[a-z][a-z0-9_]{0,63}$/;

export const datasetIdParam = (location: 'query' | 'path' = 'query'): ParamSpec => ({
  in: [location],
  required: true,
  description: 'Eurostat dataset code (nrg_bal_s, nrg_cb_e, nrg_ind_ei, nrg_ind_ren, nrg_pc_204, or any other ingested), any case. Unknown ones are a 404.',
  schema: { type: 'string', minLength: 1, maxLength: 64, examples: ['nrg_ind_ren'] },
});

/** A dataset code, lower-cased, or a 400 (whether the snapshot holds it is requireDataset's question). */
export function parseDatasetId(raw: string, param = 'dataset_id'): string {
  const id = raw.trim().toLowerCase();
  if (!DATASET_ID.test(id)) throw invalidParameter(param, `${param} must be a Eurostat dataset code such as nrg_bal_s (got "${raw}")`);
  return id;
}

/** The 404 of a well-formed dataset code the snapshot does not hold. */
export const datasetNotFound = (id: string) => notFound(`no Eurostat dataset ${id} in the snapshot; GET /api/v1/energy/datasets lists them`);

/**
 * 404 unless the snapshot holds the dataset. The observation routes ask it only when their answer is
 * empty (a row of the dataset proves it is held), so a request that finds rows costs one statement.
 */
export async function requireDatasetHeld(db: Database, id: string): Promise<void> {
  const rows = await db.all('SELECT 1 FROM energy_datasets WHERE dataset_id = $id', { id });
  if (rows.length === 0) throw datasetNotFound(id);
}

export const unitParam: ParamSpec = {
  in: ['query'],
  description: 'Unit code as published (PC, KTOE, GWH, KWH, ...), any case.',
  schema: { type: 'string', minLength: 1, maxLength: 40, examples: ['PC'] },
  normalize: 'upper',
};

export const freqParam: ParamSpec = {
  in: ['query'],
  description: 'Frequency: A (annual), S (half-yearly), Q (quarterly) or M (monthly), any case.',
  schema: { type: 'string', enum: ['A', 'S', 'Q', 'M'] },
  normalize: 'upper',
};

export const dimParam: ParamSpec = {
  in: ['query'],
  description: 'Dimension filters dim.<key>=<value> on any dimension of the dataset (dim.nrg_bal=REN, dim.siec=TOTAL); values any case. A key the dataset does not have matches nothing.',
  schema: { type: 'string', minLength: 1, maxLength: 40 },
  family: { prefix: 'dim.', keyPattern: '^[a-z][a-z0-9_]{0,39}$', maxKeys: DIM_FILTERS_MAX },
};

const PERIOD = /^(\d{4})(?:-(Q[1-4]|S[12]|0[1-9]|1[0-2]))?$/;

/** A period label (2023, 2023-Q1, 2023-S1, 2023-01), upper-cased, or a 400. */
export function parsePeriodLabel(raw: string, param: string): string {
  const text = raw.trim().toUpperCase();
  if (!PERIOD.test(text)) throw invalidParameter(param, `${param} must be a period: YYYY, YYYY-Qn, YYYY-Sn or YYYY-MM (got "${raw}")`);
  return text;
}

/** The first day of a period label (validated by parsePeriodLabel). */
export function periodStart(label: string): string {
  const match = PERIOD.exec(label)!;
  const [, year, part] = match;
  if (!part) return `${year}-01-01`;
  if (part.startsWith('Q')) return `${year}-${String((Number(part[1]) - 1) * 3 + 1).padStart(2, '0')}-01`;
  if (part.startsWith('S')) return `${year}-${part[1] === '1' ? '01' : '07'}-01`;
  return `${year}-${part}-01`;
}

export const periodParam = (description: string, example = '2023'): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'string', minLength: 4, maxLength: 7, examples: [example] },
});

export const yearParam = (description: string): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'integer', minimum: 1990, maximum: 2100 },
});

/** SQL conditions and bindings for dim.<key>=<value> filters (keys and values bound, never spliced). */
export function dimConditions(dims: Record<string, string> | undefined, alias = ''): { sql: string; bindings: Record<string, string> } {
  const entries = Object.entries(dims ?? {});
  const bindings: Record<string, string> = {};
  const parts = entries.map(([key, value], i) => {
    bindings[`dim_key_${i}`] = key;
    bindings[`dim_value_${i}`] = value.trim().toUpperCase();
    return `upper(${alias}dims[$dim_key_${i}]) = $dim_value_${i}`;
  });
  return { sql: parts.length > 0 ? parts.map((p) => ` AND ${p}`).join('') : '', bindings };
}
