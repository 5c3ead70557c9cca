// Inputs of the agri-food endpoints: the dataset, country, commodity, period and date kinds, and the
// resolution of commodity ids (unknown datasets, countries and commodities are 404s).
import type { Row } from '../../../engine/json.ts';
import type { ParamLocation, ParamSpec } from '../../../queries/catalog.ts';
import { aliased, checkByResolving, defineKind, isoDay, knownId, memberState, periodWindow, type Kind } from '../../../queries/kinds/index.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { AGRIFOOD_DATASETS, type AgrifoodDatasetId } from '../datasets.ts';
import { agriState } from './keyGrid.ts';

export const MIN_PERCENT_DEFAULT = 25;
export const Z_DEFAULT = 3;

/** Keys are joined with the unit separator, which no id or name contains. */
export const ID_SEPARATOR = '\u001f';

const textParam = (description: string, example: string): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'string', minLength: 1, maxLength: 200, examples: [example] },
});

/** A text filter matched as published (any case): the value trimmed, null when absent or blank. */
export const textFilter = (name: string, description: string, example: string): Kind<string | null> =>
  aliased({ names: [name], describe: () => description, example, maxLength: 200, resolve: (text) => text || null });

/** A dataset id (any case) -> the dataset, or a 404 listing the datasets; null when absent. */
export const dataset = (name: 'dataset' | 'dataset_id', location: ParamLocation = 'query'): Kind<AgrifoodDatasetId | null> =>
  knownId({
    name,
    ids: AGRIFOOD_DATASETS,
    in: location,
    description: `Dataset id: ${AGRIFOOD_DATASETS.join(', ')} (any case). Unknown ids are a 404.`,
    plural: 'datasets',
    example: 'cereals_prices',
  });

/** `country`: a member state code or name, or a country of the price data. */
export const country = memberState({
  names: ['country'],
  describe: () => 'Member state code or English name, any case (DE, de, Germany). Unknown ones are a 404.',
  expected: 'a member state code or name',
  lookup: async (db, text) => {
    const [row] = await db.all('SELECT code, name FROM agri_countries WHERE lower(code) = lower($text) OR lower(name) = lower($text) ORDER BY code LIMIT 1', { text });
    return row ? { code: String(row.code), name: row.name === null ? null : String(row.name) } : null;
  },
  unknown: (param, text) => `unknown ${param} "${text}": not an EU member state code or name, nor a country of the price data`,
});

/** date_from / date_to: ISO dates bounding begin_date. */
export const beginDateWindow = (examples: { from: string; to: string }) =>
  periodWindow({
    forms: 'days',
    describe: (bound) => `${bound === 'from' ? 'First' : 'Last'} begin_date, inclusive. ISO date YYYY-MM-DD.`,
    examples,
  });

/** `date`: one exact begin_date. */
export const exactDate = isoDay({ name: 'date', description: 'Exact begin_date. ISO date YYYY-MM-DD.', example: '2026-11-09' });

/** `commodity_id` (path): the commodity row of an id (exact, then any case), or a 404. */
export const commodityId: Kind<Row> = defineKind({
  params: {
    commodity_id: {
      in: ['path'],
      required: true,
      description:
        'Commodity id: cereals_prices:{product_name}, oilseeds_prices:{product_name}|{product_type} or pigmeat_prices:{pig_class} ' +
        '(URL-encoded; spaces and the colon allowed). Unknown ids are a 404.',
      schema: { type: 'string', minLength: 1, maxLength: 300, examples: ['cereals_prices:Feed barley'] },
    },
  },
  resolve: async (raw, { db }) => {
    const id = raw.commodity_id as string;
    // agri_commodities in commodity_id order: the exact id, else the first equal in any case.
    const { commodities } = await agriState(db);
    const lower = id.toLowerCase();
    const row = commodities.find((c) => c.commodity_id === id) ?? commodities.find((c) => String(c.commodity_id).toLowerCase() === lower);
    if (!row) throw notFound(`unknown commodity "${id}"; list them with /api/v1/commodities`);
    return { ...row };
  },
});

export interface CommodityFilter {
  /** The text given (trimmed). */
  text: string;
  /** The commodity ids it names. */
  ids: string[];
}

/**
 * `commodity` (alias `product`): a commodity id, or a product name or pig class (any case, every
 * dataset) -> the commodity ids it names. None: a 404.
 */
export const commodityFilter = aliased<CommodityFilter>({
  names: ['commodity', 'product'],
  describe: (name) =>
    name === 'commodity'
      ? 'A commodity id (cereals_prices:Feed barley), or a product name or pig class, any case (every commodity of that name). Unknown ones are a 404.'
      : 'Alias of commodity.',
  example: 'Feed barley',
  maxLength: 200,
  resolve: async (text, param, { db }) => {
    const lower = text.toLowerCase();
    const same = (value: unknown) => value !== null && String(value).toLowerCase() === lower;
    const rows = (await agriState(db)).commodities.filter((c) => same(c.commodity_id) || same(c.product_name) || same(c.pig_class));
    if (rows.length === 0) throw notFound(`unknown ${param} "${text}": no commodity id, product name or pig class matches`);
    return { text, ids: rows.map((row) => String(row.commodity_id)) };
  },
});

export type Period = { weekNumber: number; marketingYear: null } | { weekNumber: null; marketingYear: string };

/** `period`: a week number (1..53) or a marketing year ("2025/2026", also "2025/26"). */
export function parsePeriod(value: string): Period {
  const text = value.trim();
  if (/^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= 53) return { weekNumber: Number(text), marketingYear: null };
  const match = /^(\d{4})\s*[/-]\s*(\d{2}|\d{4})$/.exec(text);
  if (match) {
    const start = Number(match[1]);
    const end = match[2].length === 2 ? Number(match[1].slice(0, 2) + match[2]) : Number(match[2]);
    if (end === start + 1) return { weekNumber: null, marketingYear: `${start}/${end}` };
  }
  throw invalidParameter('period', `period must be a week number 1..53 or a marketing year such as 2025/2026 (got "${value}")`);
}

const resolvePeriod = (raw: Record<string, unknown>) => (typeof raw.period === 'string' ? parsePeriod(raw.period) : null);

/** `period` -> a week number or a marketing year; malformed: a 400 before any payment. */
export const period: Kind<Period | null> = defineKind({
  params: { period: textParam('Week number (1..53) or marketing year (2025/2026).', '2025/2026') },
  checks: [checkByResolving('period', 'period is a week number 1..53 or a marketing year such as 2025/2026', resolvePeriod)],
  resolve: resolvePeriod,
});
