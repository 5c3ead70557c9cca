// The development bank (World Bank WDI) tables of the country domain. PLACEHOLDER until the WDI reader lands.
import type { Database } from '../../../engine/database.ts';

export interface DevbankValue {
  value: number;
  year: number;
  period: string;
  wdiCode: string;
  vintage: string | null;
}

/** The latest non-missing year of every allowlisted indicator for an area, keyed by indicator code. */
export async function devbankLatest(db: Database, iso3: string): Promise<Map<string, DevbankValue>> {
  void db;
  void iso3;
  return new Map();
}
