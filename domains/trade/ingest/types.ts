// The EU customs trade extract (Comext dataset DS-045409) as the trade ingest reads and stores it.

/** Dataset name in the import ledger and base name of the snapshot file. */
export const TRADE_DATASET = 'trade_observations';
/** Source format id recorded in the import ledger. */
export const TRADE_SOURCE_FORMAT = 'comext-sdmx-csv';
/** Where the extract is downloaded from (recorded as source_url unless one is given). */
export const TRADE_SOURCE_URL = 'https://ec.europa.eu/eurostat/api/comext/dissemination/sdmx/2.1/data/DS-045409';

/** The indicators kept; SUPPLEMENTARY_QUANTITY rows are read and skipped. */
export const TRADE_INDICATORS = ['VALUE_IN_EUROS', 'QUANTITY_IN_100KG'] as const;
export type TradeIndicator = (typeof TRADE_INDICATORS)[number];
export const SKIPPED_INDICATORS = ['SUPPLEMENTARY_QUANTITY'] as const;

export type TradeFrequency = 'A' | 'M';

/** One source row: one indicator of one (reporter, partner, product, flow, period). */
export interface TradeObservation {
  reporter: string;
  partner: string;
  /** Kept as the source writes it: a string, leading zeros and all ("1001", "030462"). */
  product: string;
  flow: 1 | 2;
  freq: TradeFrequency;
  /** "YYYY" (annual) or "YYYY-MM" (monthly). */
  period: string;
  indicator: TradeIndicator;
  /** Exact decimal text as published (trimmed), or null when OBS_VALUE is empty or ":". */
  value: string | null;
  flag: string | null;
  /** LAST UPDATE as an ISO timestamp "YYYY-MM-DD HH:MM:SS", or null when the column is absent. */
  lastUpdate: string | null;
  dataflow: string | null;
  /** 1-based line of the file (the header is line 1). */
  sourceRow: number;
}

export interface TradeFile {
  observations: TradeObservation[];
  /** Rows of indicators that are read but not kept (SUPPLEMENTARY_QUANTITY). */
  skippedRows: number;
}
