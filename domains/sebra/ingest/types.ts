// The normalised shape every SEBRA source format is parsed into: one row per
// day x organisation ("programme") x payment code x currency.

export type Currency = 'BGN' | 'EUR';
export type DayStatus = 'HAS_PAYMENTS' | 'NO_PAYMENTS';
export type SebraSourceFormat = 'mof-xlsx' | 'portal-json' | 'report-tree';

export interface SebraPaymentRow {
  /** ISO date YYYY-MM-DD. */
  paymentDate: string;
  currency: Currency;
  /** Organisation name as printed, whitespace collapsed ("Министерство на финансите"). */
  programme: string;
  /** Masked organisation id as printed, e.g. "001*******"; null when the source has none. */
  programmeCode: string | null;
  /** Two-digit SEBRA payment code ("01".."98"); "" for report lines printed without a code. */
  accountCode: string;
  accountDescription: string;
  /** Exact decimal string with two decimals, e.g. "-1234.50". Never a float. */
  amount: string;
  /** Number of payments when the source states it (older layout, report tree); null otherwise. */
  paymentCount: number | null;
}

export interface SebraDayReport {
  paymentDate: string;
  currency: Currency;
  status: DayStatus;
  format: SebraSourceFormat;
  rows: SebraPaymentRow[];
}

export { MalformedSourceError } from '../../../ingest/errors.ts';
