// /api/economic/country/{code}/overview: which sources hold data for a country, each with its latest
// headline. The route asks the coverage declared by the loaded domains (queries/shared/coverage.ts);
// it reads no other domain's tables itself.
import { defineRoute } from '../../../queries/catalog.ts';
import { countryCoverage } from '../../../queries/shared/coverage.ts';
import { codePathParam, resolveIso2Or3 } from './codes.ts';
import { overviewResponse, placeOut } from './schemas.ts';

interface OverviewParams {
  code: string;
}

export const getCountryOverview = defineRoute<OverviewParams>({
  id: 'getCountryOverview',
  method: 'GET',
  tag: 'country',
  paths: ['/api/economic/country/{code}/overview'],
  examples: ['/api/economic/country/US/overview', '/api/economic/country/deu/overview', '/api/economic/country/BG/overview'],
  summary: 'Country overview: the statistics-office, central-bank, cooperation-organisation and development-bank data present',
  description:
    '`sources_present` lists, in this order, the sources with data for the country: statsoffice (a Eurostat dataset of the energy or ' +
    'macro domains has the geo), centralbank (the euro-area central bank series cover it as a euro-area member, or for the US the reserve-bank ' +
    'series are loaded and approved), coop (OECD indicators), devbank (World Bank WDI). `sources` gives for each of the four `available`, ' +
    'the latest `headline` {series, label, value, unit, period, vintage} and `declared_by`: the loaded domains that declare coverage of that ' +
    'source (a source no loaded domain declares is never present). coop\'s headline is the composite leading indicator (else the first ' +
    'indicator with data), devbank\'s GDP per capita (else the first indicator of the allowlist with data). Codes: ISO2 or ISO3 in any case ' +
    '(EL and UK read as GR and GB); a valid country without any data answers 200 with available: false and an empty sources_present.',
  paid: true,
  params: { code: codePathParam('US') },
  response: overviewResponse,
  async handle({ code }, { db }) {
    const place = await resolveIso2Or3(code, 'code');
    const coverage = await countryCoverage(db, { iso2: place.iso2!, iso3: place.iso3 });
    return {
      endpoint: 'country_overview',
      country: placeOut(place),
      available: coverage.sources_present.length > 0,
      sources_present: coverage.sources_present,
      sources: coverage.sources as unknown as Record<string, never>,
    };
  },
});
