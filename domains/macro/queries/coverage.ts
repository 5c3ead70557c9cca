// The macro domain's coverage for the country overview:
// - statsoffice: the latest HICP annual rate of change (all items) for the country (Eurostat codes: EL for Greece);
// - centralbank: for a euro-area member, the ECB deposit facility rate in force at the latest €STR date
//   (the policy rate that applies there); for the United States, the derived 10Y-2Y spread when the
//   reserve-bank series are APPROVED (derived only: no raw observation is ever returned).
// Each reads one precomputed row of tables.ts.
import type { Database } from '../../../engine/database.ts';
import type { CountryCoverage, CoverageCountry, CoverageHeadline } from '../../../queries/shared/coverage.ts';
import { ecbStance, usSpread } from './routes.ts';

/** Euro-area members (ISO alpha-2) and the year each adopted the euro. */
const EURO_AREA_SINCE = new Map<string, number>([
  ['AT', 1999], ['BE', 1999], ['DE', 1999], ['ES', 1999], ['FI', 1999], ['FR', 1999], ['IE', 1999], ['IT', 1999], ['LU', 1999],
  ['NL', 1999], ['PT', 1999], ['GR', 2001], ['SI', 2007], ['CY', 2008], ['MT', 2008], ['SK', 2009], ['EE', 2011], ['LV', 2014],
  ['LT', 2015], ['HR', 2023], ['BG', 2026],
]);

/** Eurostat writes Greece EL and the United Kingdom UK. */
const eurostatGeo = (iso2: string): string => (iso2 === 'GR' ? 'EL' : iso2 === 'GB' ? 'UK' : iso2);

export const hicpCoverage: CountryCoverage = {
  source: 'statsoffice',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const [latest] = await db.all('SELECT month, value FROM macro_hicp_latest WHERE geo = $geo', { geo: eurostatGeo(country.iso2) });
    if (!latest) return null;
    return { series: 'prc_hicp_manr', label: 'HICP annual rate of change, all items', value: Number(latest.value), unit: 'percent', period: String(latest.month), vintage: null };
  },
};

export const centralBankCoverage: CountryCoverage = {
  source: 'centralbank',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const since = EURO_AREA_SINCE.get(country.iso2);
    if (since !== undefined) {
      const stance = await ecbStance(db);
      const inForce = stance?.rates.DFR ?? null;
      if (!stance || Number(stance.estr.date.slice(0, 4)) < since || !inForce) return null;
      return { series: 'FM.B.U2.EUR.4F.KR.DFR.LEV', label: 'ECB deposit facility rate in force', value: inForce.value, unit: 'percent', period: stance.estr.date, vintage: inForce.date };
    }
    if (country.iso2 === 'US') {
      const spread = await usSpread(db, true); // only when DGS10 and DGS2 are both APPROVED
      if (spread) {
        return { series: 'US_10Y_2Y_SPREAD', label: 'US 10-year minus 2-year Treasury yield (derived)', value: spread.value, unit: 'percentage_points', period: spread.date, vintage: null };
      }
    }
    return null;
  },
};
