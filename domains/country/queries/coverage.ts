// The country domain's own coverage declarations for the overview: coop (OECD) and devbank (World
// Bank WDI). Each answers the latest headline of its source for a country, or null without data.
import type { Database } from '../../../engine/database.ts';
import type { CountryCoverage, CoverageCountry, CoverageHeadline } from '../../../queries/shared/coverage.ts';
import { COOP_INDICATORS, COOP_INFO, DEVBANK_INDICATORS } from '../indicators.ts';
import { devbankLatest } from './devbankTables.ts';

/** coop: the composite leading indicator, else the first of BCI, CCI, INDPRO, RETAIL, UNEMP with data. */
export const coopCoverage: CountryCoverage = {
  source: 'coop',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const rows = await db.all('SELECT indicator, period, value, vintage FROM coop_latest WHERE area = $area', { area: country.iso3 });
    for (const indicator of COOP_INDICATORS) {
      const row = rows.find((r) => r.indicator === indicator);
      if (!row) continue;
      const info = COOP_INFO.get(indicator)!;
      return {
        series: `COOP_${indicator}_${country.iso3}`,
        label: info.name,
        value: row.value,
        unit: info.unit,
        period: String(row.period),
        vintage: row.vintage === null ? null : String(row.vintage),
      };
    }
    return null;
  },
};

/** devbank: GDP per capita, else the first indicator of the allowlist with a value. */
export const devbankCoverage: CountryCoverage = {
  source: 'devbank',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const latest = await devbankLatest(db, country.iso3);
    for (const indicator of DEVBANK_INDICATORS) {
      const value = latest.get(indicator.code);
      if (!value) continue;
      return {
        series: `DEVBANK_${indicator.code}_${country.iso3}`,
        label: indicator.name,
        value: value.value,
        unit: indicator.unit,
        period: value.period,
        vintage: value.vintage,
      };
    }
    return null;
  },
};
