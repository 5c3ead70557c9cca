// The energy domain's coverage for the country overview: statsoffice, the latest Eurostat indicator
// card of the country (renewables share, else energy intensity, else the household electricity
// price), read from the precomputed energy_cards (Eurostat codes: EL for Greece, UK for the UK).
import type { Database } from '../../../engine/database.ts';
import type { CountryCoverage, CoverageCountry, CoverageHeadline } from '../../../queries/shared/coverage.ts';

const HEADLINES = [
  { indicator: 'renewables_share', dataset: 'nrg_ind_ren', label: 'Share of energy from renewable sources' },
  { indicator: 'energy_intensity', dataset: 'nrg_ind_ei', label: 'Energy intensity of the economy' },
  { indicator: 'electricity_price', dataset: 'nrg_pc_204', label: 'Household electricity price, all taxes' },
] as const;

const eurostatGeo = (iso2: string): string => (iso2 === 'GR' ? 'EL' : iso2 === 'GB' ? 'UK' : iso2);

export const energyCoverage: CountryCoverage = {
  source: 'statsoffice',
  async headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null> {
    const rows = await db.all('SELECT indicator, unit, value, period FROM energy_cards WHERE geo = $geo', { geo: eurostatGeo(country.iso2) });
    for (const headline of HEADLINES) {
      const row = rows.find((candidate) => candidate.indicator === headline.indicator);
      if (!row || row.value === null) continue;
      return { series: headline.dataset, label: headline.label, value: row.value, unit: row.unit === null ? null : String(row.unit), period: String(row.period), vintage: null };
    }
    return null;
  },
};
