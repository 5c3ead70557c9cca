// Names shared by the macro ingest (ECB Data API csvdata, the ECB reference-rate bulk file, FRED).

/** Snapshot tables (Parquet files) written by the macro ingest commands. */
export const ECB_DATASET = 'macro_ecb_observations';
export const EUROFXREF_DATASET = 'macro_eurofxref';
export const FRED_DATASET = 'macro_fred_observations';
/** History of FRED licence statuses: one row per change (ingest or `npm run license`). */
export const FRED_LICENSE_DATASET = 'macro_fred_licenses';

export const ECB_SOURCE_FORMAT = 'ecb-csvdata';
export const EUROFXREF_SOURCE_FORMAT = 'ecb-eurofxref-hist';
export const FRED_SOURCE_FORMAT = 'fred';
export const FRED_LICENSE_SOURCE = 'fred-license';

export const ECB_SOURCE_URL = 'https://data-api.ecb.europa.eu/service/data/';
export const EUROFXREF_SOURCE_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';
export const FRED_SOURCE_URL = 'https://fred.stlouisfed.org/graph/fredgraph.csv';

export const LICENSE_STATUSES = ['APPROVED', 'PENDING', 'DENIED'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

export function isLicenseStatus(text: string): text is LicenseStatus {
  return (LICENSE_STATUSES as readonly string[]).includes(text);
}

/** One ECB observation: the series KEY as published, the date (YYYY-MM-DD), the value (null = missing). */
export interface EcbObservation {
  seriesKey: string;
  date: string;
  value: number | null;
  row: number;
}

/** One cell of the reference-rate file: EUR 1 = rate units of currency on date. */
export interface ReferenceRate {
  date: string;
  currency: string;
  rate: number;
}

/** One FRED observation (value null = published as missing: `.` or empty). */
export interface FredObservation {
  seriesId: string;
  date: string;
  value: number | null;
  row: number;
}
