// Parser of the agri-food portal's price exports (JSON arrays of flat objects, one per sector).
// Field names differ per sector: cereals productName/marketName/stageName, oilseeds
// product/productType/market/marketStage, pigmeat pigClass (no market or stage). The dataset is the
// --dataset option when given, otherwise detected from the first record's field names.
import { basename } from 'node:path';
import { findMemberState } from '../../../reference/countries.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import type { AgrifoodDataset, AgrifoodFile, AgriPriceRecord } from './types.ts';
import { optionalText, parseMarketingYear, parsePortalDate, parsePrice, parseWeekNumber } from './values.ts';

/** The field that identifies each sector's records. */
const SECTOR_FIELD: Record<AgrifoodDataset, string> = {
  cereals_prices: 'productName',
  oilseeds_prices: 'product',
  pigmeat_prices: 'pigClass',
};

/** The portal's own marker for an oilseed without a product type. */
export const NO_PRODUCT_TYPE = 'N.A.';

export function commodityId(dataset: AgrifoodDataset, productName: string, productType: string | null): string {
  return dataset === 'oilseeds_prices' ? `${dataset}:${productName}|${productType ?? NO_PRODUCT_TYPE}` : `${dataset}:${productName}`;
}

/** The dataset whose identifying field the record carries, or null. */
export function detectDataset(record: Record<string, unknown>): AgrifoodDataset | null {
  const found = (Object.keys(SECTOR_FIELD) as AgrifoodDataset[]).filter((dataset) => SECTOR_FIELD[dataset] in record);
  return found.length === 1 ? found[0] : null;
}

function requiredText(record: Record<string, unknown>, field: string): string {
  const text = optionalText(record[field], field);
  if (text === null) throw new Error(`${field} is missing`);
  return text;
}

function memberState(record: Record<string, unknown>): { code: string; name: string } {
  const raw = requiredText(record, 'memberStateCode').toUpperCase();
  if (!/^[A-Z][A-Z0-9]{1,9}$/.test(raw)) throw new Error(`memberStateCode ${JSON.stringify(record.memberStateCode)} is not a country code`);
  // Greece is EL in EU data; an occasional GR is folded to it. Some records omit the name.
  const known = findMemberState(raw);
  const code = known && raw === 'GR' ? known.code : raw;
  const name = optionalText(record.memberStateName, 'memberStateName') ?? known?.name ?? code;
  return { code, name };
}

function toRecord(dataset: AgrifoodDataset, record: Record<string, unknown>, sourceRow: number): AgriPriceRecord {
  const state = memberState(record);
  const common = {
    memberStateCode: state.code,
    memberStateName: state.name,
    beginDate: parsePortalDate(record.beginDate, 'beginDate') ?? fail('beginDate is missing'),
    endDate: parsePortalDate(record.endDate, 'endDate'),
    weekNumber: parseWeekNumber(record.weekNumber),
    marketingYear: parseMarketingYear(record.marketingYear),
    referencePeriod: optionalText(record.referencePeriod, 'referencePeriod'),
    unit: optionalText(record.unit, 'unit'),
    price: parsePrice(record.price),
    sourceRow,
  };
  if (common.endDate !== null && common.endDate < common.beginDate) {
    throw new Error(`endDate ${record.endDate} is before beginDate ${record.beginDate}`);
  }
  if (dataset === 'cereals_prices') {
    const productName = requiredText(record, 'productName');
    return {
      ...common, commodityId: commodityId(dataset, productName, null), productName,
      productCode: optionalText(record.productCode, 'productCode'), productType: null, pigClass: null,
      marketName: optionalText(record.marketName, 'marketName'), marketCode: optionalText(record.marketCode, 'marketCode'),
      stageName: optionalText(record.stageName, 'stageName'), stageCode: optionalText(record.stageCode, 'stageCode'),
    };
  }
  if (dataset === 'oilseeds_prices') {
    const productName = requiredText(record, 'product');
    const productType = optionalText(record.productType, 'productType') ?? NO_PRODUCT_TYPE;
    return {
      ...common, commodityId: commodityId(dataset, productName, productType), productName,
      productCode: optionalText(record.productCode, 'productCode'), productType, pigClass: null,
      marketName: optionalText(record.market, 'market'), marketCode: optionalText(record.marketCode, 'marketCode'),
      stageName: optionalText(record.marketStage, 'marketStage'), stageCode: null,
    };
  }
  const pigClass = requiredText(record, 'pigClass');
  return {
    ...common, commodityId: commodityId(dataset, pigClass, null), productName: pigClass,
    productCode: null, productType: null, pigClass,
    marketName: null, marketCode: null, stageName: null, stageCode: null,
  };
}

function fail(message: string): never {
  throw new Error(message);
}

/** The dataset of a file from its first record (a MalformedSourceError naming row 1 when it cannot be told), or the one given. */
export function chooseDataset(first: unknown, name: string, dataset?: AgrifoodDataset): AgrifoodDataset {
  if (first === null || typeof first !== 'object' || Array.isArray(first)) throw new MalformedSourceError(name, 1, 'a price record must be a JSON object');
  const chosen = dataset ?? detectDataset(first as Record<string, unknown>);
  if (!chosen) {
    throw new MalformedSourceError(name, 1, 'cannot tell the sector from the field names (productName = cereals, product = oilseeds, pigClass = pigmeat); give --dataset');
  }
  return chosen;
}

/** One element of an export (`row` its 1-based position) as a record of the chosen dataset, or a MalformedSourceError naming the row. */
export function recordOfElement(item: unknown, row: number, chosen: AgrifoodDataset, name: string): AgriPriceRecord {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new MalformedSourceError(name, row, 'a price record must be a JSON object');
  const record = item as Record<string, unknown>;
  if (!(SECTOR_FIELD[chosen] in record)) {
    const looksLike = detectDataset(record);
    throw new MalformedSourceError(name, row, `${SECTOR_FIELD[chosen]} is missing: not a ${chosen} record${looksLike ? ` (the fields are those of ${looksLike})` : ''}`);
  }
  try {
    return toRecord(chosen, record, row);
  } catch (error) {
    throw new MalformedSourceError(name, row, error instanceof Error ? error.message : String(error));
  }
}

/** The field that identifies a dataset's records. */
export function sectorField(dataset: AgrifoodDataset): string {
  return SECTOR_FIELD[dataset];
}

/** Parses the text of one export; `file` names it in errors. */
export function parseAgrifoodJson(text: string, file: string, dataset?: AgrifoodDataset): AgrifoodFile {
  const name = basename(file);
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MalformedSourceError(name, null, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(data)) throw new MalformedSourceError(name, null, NOT_AN_ARRAY);
  if (data.length === 0) throw new MalformedSourceError(name, null, NO_RECORDS);
  const chosen = chooseDataset(data[0], name, dataset);
  const records = data.map((item, index) => recordOfElement(item, index + 1, chosen, name));
  return { dataset: chosen, detectedBy: dataset ? 'option' : 'fields', records };
}

export const NOT_AN_ARRAY = 'expected a JSON array of price records, as the portal returns';
export const NO_RECORDS = 'the file holds no price records';
