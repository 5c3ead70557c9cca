// Parameters of the agri-food endpoints, their cross-field checks, and the resolution of dataset,
// country and commodity values (unknown ones are 404s).
import type { Database } from '../../../engine/database.ts';
import type { CrossFieldCheck, ParamSpec } from '../../../queries/catalog.ts';
import { findMemberState } from '../../../reference/countries.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { AGRIFOOD_DATASETS, type AgrifoodDatasetId } from './tables.ts';

export const MIN_PERCENT_DEFAULT = 25;
export const Z_DEFAULT = 3;

const textParam = (description: string, example: string, maxLength = 200): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'string', minLength: 1, maxLength, examples: [example] },
});

export const datasetParam: ParamSpec = {
  in: ['query'],
  description: `Dataset id: ${AGRIFOOD_DATASETS.join(', ')} (any case). Unknown ids are a 404.`,
  normalize: 'lower',
  schema: { type: 'string', minLength: 1, maxLength: 64, examples: ['cereals_prices'] },
};

export const datasetIdPathParam: ParamSpec = {
  in: ['path'],
  required: true,
  description: `Dataset id: ${AGRIFOOD_DATASETS.join(', ')} (any case). Unknown ids are a 404.`,
  normalize: 'lower',
  schema: { type: 'string', minLength: 1, maxLength: 64, examples: ['cereals_prices'] },
};

export const commodityIdPathParam: ParamSpec = {
  in: ['path'],
  required: true,
  description:
    'Commodity id: cereals_prices:{product_name}, oilseeds_prices:{product_name}|{product_type} or pigmeat_prices:{pig_class} ' +
    '(URL-encoded; spaces and the colon allowed). Unknown ids are a 404.',
  schema: { type: 'string', minLength: 1, maxLength: 300, examples: ['cereals_prices:Feed barley'] },
};

export const countryParam = textParam('Member state code or English name, any case (DE, de, Germany). Unknown ones are a 404.', 'DE', 100);

export const isoDateParam = (description: string, example: string): ParamSpec => textParam(`${description} ISO date YYYY-MM-DD.`, example, 10);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO calendar date, or a 400 naming the parameter. */
export function parseIsoDate(value: string, param: string): string {
  const match = ISO_DATE.exec(value.trim());
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return match[0];
  }
  throw invalidParameter(param, `${param} must be an ISO date YYYY-MM-DD (got "${value}")`);
}

/** The named date parameters must be ISO dates, and date_from may not be after date_to. */
export function isoDateChecks<P extends object>(names: readonly string[]): CrossFieldCheck<P> {
  return {
    name: 'isoDates',
    description: `${names.join(', ')} are ISO dates; date_from <= date_to`,
    check: (input) => {
      const params = input as Record<string, unknown>;
      try {
        for (const name of names) if (typeof params[name] === 'string') parseIsoDate(params[name] as string, name);
      } catch (error) {
        return error as ReturnType<typeof invalidParameter>;
      }
      const from = params.date_from as string | undefined;
      const to = params.date_to as string | undefined;
      if (from !== undefined && to !== undefined && from.trim() > to.trim()) {
        return invalidParameter('date_from', `date_from (${from.trim()}) is after date_to (${to.trim()})`);
      }
      return null;
    },
  };
}

/** Aliases of one value: at most one distinct value may be given among them. */
export function aliasCheck<P extends object>(names: readonly string[]): CrossFieldCheck<P> {
  return {
    name: `aliases(${names.join(',')})`,
    description: `${names.join(', ')} are aliases: give one`,
    check: (input) => {
      const params = input as Record<string, unknown>;
      const given = names.filter((name) => params[name] !== undefined);
      const values = new Set(given.map((name) => String(params[name]).trim()));
      return values.size > 1
        ? invalidParameter(given[1], `${given.join(' and ')} are aliases of one filter and disagree; give one of them`)
        : null;
    },
  };
}

/** The first alias given, trimmed. */
export function aliasValue(input: object, names: readonly string[]): string | undefined {
  const params = input as Record<string, unknown>;
  for (const name of names) if (typeof params[name] === 'string') return (params[name] as string).trim();
  return undefined;
}

export function resolveDataset(value: string | undefined, param = 'dataset'): AgrifoodDatasetId | null {
  if (value === undefined) return null;
  const id = value.trim().toLowerCase();
  if (!(AGRIFOOD_DATASETS as readonly string[]).includes(id)) {
    throw notFound(`unknown ${param} "${value}"; datasets: ${AGRIFOOD_DATASETS.join(', ')}`);
  }
  return id as AgrifoodDatasetId;
}

/** A member state code from a code or name: the EU table first, then the codes and names of the data. */
export async function resolveCountry(db: Database, value: string | undefined, param = 'country'): Promise<string | null> {
  if (value === undefined) return null;
  const text = value.trim();
  if (text === '') throw invalidParameter(param, `${param} must be a member state code or name`);
  const known = findMemberState(text);
  if (known) return known.code;
  const [row] = await db.all('SELECT code FROM agri_countries WHERE lower(code) = lower($text) OR lower(name) = lower($text) ORDER BY code LIMIT 1', { text });
  if (!row) throw notFound(`unknown ${param} "${text}": not an EU member state code or name, nor a country of the price data`);
  return String(row.code);
}

/** Keys are joined with the unit separator, which no id or name contains. */
export const ID_SEPARATOR = '\u001f';

/** The commodity row of an id (exact, then any case), or a 404. */
export async function resolveCommodityId(db: Database, id: string): Promise<Record<string, unknown>> {
  const [row] = await db.all(
    `SELECT commodity_id, dataset, product_name, product_code, product_type, pig_class FROM agri_commodities
      WHERE commodity_id = $id OR lower(commodity_id) = lower($id) ORDER BY commodity_id <> $id, commodity_id LIMIT 1`,
    { id },
  );
  if (!row) throw notFound(`unknown commodity "${id}"; list them with /api/v1/commodities`);
  return row;
}

/**
 * The commodity ids a `commodity`/`product` filter names: a commodity id, or a product name or pig
 * class (any case, every dataset). None: a 404.
 */
export async function resolveCommodityFilter(db: Database, value: string | undefined, param: string): Promise<string[] | null> {
  if (value === undefined) return null;
  const text = value.trim();
  const rows = await db.all(
    `SELECT commodity_id FROM agri_commodities
      WHERE lower(commodity_id) = lower($text) OR lower(product_name) = lower($text) OR lower(pig_class) = lower($text)
      ORDER BY commodity_id`,
    { text },
  );
  if (rows.length === 0) throw notFound(`unknown ${param} "${text}": no commodity id, product name or pig class matches`);
  return rows.map((row) => String(row.commodity_id));
}
