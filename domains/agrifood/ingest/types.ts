// The agri-food portal's three price datasets and one price row as the snapshot stores it.

export const AGRIFOOD_DATASETS = ['cereals_prices', 'oilseeds_prices', 'pigmeat_prices'] as const;
export type AgrifoodDataset = (typeof AGRIFOOD_DATASETS)[number];

export function isAgrifoodDataset(value: string): value is AgrifoodDataset {
  return (AGRIFOOD_DATASETS as readonly string[]).includes(value);
}

/** Source format ids recorded in the import ledger, one per sector endpoint of the portal. */
export const AGRIFOOD_SOURCE_FORMAT: Record<AgrifoodDataset, string> = {
  cereals_prices: 'agrifood-cereal-prices-json',
  oilseeds_prices: 'agrifood-oilseeds-prices-json',
  pigmeat_prices: 'agrifood-pigmeat-prices-json',
};

/** The portal address each dataset is exported from (recorded as source_url unless one is given). */
export const AGRIFOOD_SOURCE_URL: Record<AgrifoodDataset, string> = {
  cereals_prices: 'https://api.tech.ec.europa.eu/agrifood/api/cereal/prices',
  oilseeds_prices: 'https://api.tech.ec.europa.eu/agrifood/api/oilseeds/prices',
  pigmeat_prices: 'https://api.tech.ec.europa.eu/agrifood/api/pigmeat/prices',
};

/** One price record, normalised; fields a sector does not publish are null. */
export interface AgriPriceRecord {
  commodityId: string;
  /** Cereal productName, oilseed product, or the pig class for pigmeat. */
  productName: string;
  productCode: string | null;
  /** Oilseeds only ("N.A." when the portal says so or leaves it out). */
  productType: string | null;
  /** Pigmeat only. */
  pigClass: string | null;
  memberStateCode: string;
  memberStateName: string;
  marketName: string | null;
  marketCode: string | null;
  /** Cereal stageName, oilseed marketStage. */
  stageName: string | null;
  stageCode: string | null;
  /** ISO dates. */
  beginDate: string;
  endDate: string | null;
  weekNumber: number | null;
  marketingYear: string | null;
  referencePeriod: string | null;
  unit: string | null;
  /** Exact decimal text with a dot ("1234.5"); null when the portal gives no price. */
  price: string | null;
  /** 1-based position in the file's array. */
  sourceRow: number;
}

export interface AgrifoodFile {
  dataset: AgrifoodDataset;
  /** How the dataset was chosen: given with --dataset, or detected from the field names. */
  detectedBy: 'option' | 'fields';
  records: AgriPriceRecord[];
}
