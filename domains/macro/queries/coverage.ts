// The macro domain's coverage for the country overview:
// - statsoffice: the latest HICP annual rate of change (all items) for the country (Eurostat codes: EL for Greece);
// - centralbank: for a euro-area member, the ECB deposit facility rate in force at the latest €STR date
//   (the policy rate that applies there); for the United States, the derived 10Y-2Y spread when the
//   reserve-bank series are APPROVED (derived only: no raw observation is ever returned).
import type { Database } from '../../../engine/database.ts';
import type { CountryCoverage, CoverageCountry, CoverageHeadline } from '../../../queries/shared/coverage.ts';
import { round, stepAt } from './analytics.ts';
import { macroData } from './tables.ts';

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
    const months = macroData(db).hicp.get(eurostatGeo(country.iso2));
    if (!months || months.size === 0) return null;
    const month = [...months.keys()].sort().at(-1)!;
    return { series: 'prc_hicp_manr', label: 'HICP annual rate of change, all items', value: months.get(month)!, unit: 'percent', period: month, vintage: null };
  },
};

function isApproved(db: Database, series: string): boolean {
  return macroData(db).licenses.get(series)?.status === 'APPROVED';
}

export const centralBankCoverage: CountryCoverage = {
  source: 'centralbank',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const data = macroData(db);
    const since = EURO_AREA_SINCE.get(country.iso2);
    if (since !== undefined) {
      const estr = data.estr.at(-1);
      const steps = data.keyRates.DFR;
      if (!estr || steps.length === 0 || Number(estr.date.slice(0, 4)) < since) return null;
      const inForce = stepAt(steps, estr.date);
      if (!inForce) return null;
      return { series: 'FM.B.U2.EUR.4F.KR.DFR.LEV', label: 'ECB deposit facility rate in force', value: inForce.value, unit: 'percent', period: estr.date, vintage: inForce.date };
    }
    if (country.iso2 === 'US' && isApproved(db, 'DGS10') && isApproved(db, 'DGS2')) {
      const two = new Map((data.fred.get('DGS2') ?? []).map((point) => [point.date, point.value]));
      const ten = data.fred.get('DGS10') ?? [];
      for (let i = ten.length - 1; i >= 0; i--) {
        const other = two.get(ten[i].date);
        if (other === undefined) continue;
        const value = round(ten[i].value - other, 2);
        return { series: 'US_10Y_2Y_SPREAD', label: 'US 10-year minus 2-year Treasury yield (derived)', value, unit: 'percentage_points', period: ten[i].date, vintage: null };
      }
    }
    return null;
  },
};
