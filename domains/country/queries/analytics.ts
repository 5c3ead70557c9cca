// Structural analytics of a country from the World Bank WDI (reference/analytics.md, Country):
//   /api/analytics/trade-openness/{code}     NE.EXP.GNFS.ZS + NE.IMP.GNFS.ZS, the latest year both exist
//   /api/analytics/debt-burden/{code}        GC.DOD.TOTL.GD.ZS, the latest year
//   /api/analytics/energy-dependency/{code}  EG.IMP.CONS.ZS and EG.FEC.RNEW.ZS, each its latest year
//   /api/analytics/country-structure/{code}  the three above plus FDI, population and its growth, CO2 intensity
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { codePathParam, resolveIso2Or3, type Place } from './codes.ts';
import { devbankArea, yearValueOut } from './devbank.ts';
import { devbankLatest, latestValueOf, type DevbankValue } from './devbankTables.ts';
import { countryStructureResponse, debtBurdenResponse, energyDependencyResponse, placeOut, tradeOpennessResponse } from './schemas.ts';

/** Decimals of the trade-openness sum (its two terms are returned as published). */
export const OPENNESS_DECIMALS = 4;

const CODE_TEXT = '; WDI aggregate codes (EUU, WLD, HIC) too';

interface CodeParams {
  code: string;
}

async function resolveCode(db: Database, code: string): Promise<Place> {
  return resolveIso2Or3(code, 'code', (text) => devbankArea(db, text));
}

/** Trade openness of an area: the latest year in which both exports and imports (% of GDP) exist. */
export async function tradeOpenness(db: Database, area: string) {
  const [row] = await db.all('SELECT year, exports_pct_gdp, imports_pct_gdp, vintage FROM devbank_openness WHERE area = $area', { area });
  return opennessOf(row);
}

/** The trade-openness answer of a devbank_openness row (year, exports_pct_gdp, imports_pct_gdp, vintage), or unavailable. */
function opennessOf(row: Row | undefined) {
  if (!row) return { available: false, value: null, year: null, exports_pct_gdp: null, imports_pct_gdp: null, vintage: null };
  const exports = Number(row.exports_pct_gdp);
  const imports = Number(row.imports_pct_gdp);
  return {
    available: true,
    value: Number((exports + imports).toFixed(OPENNESS_DECIMALS)),
    year: Number(row.year),
    exports_pct_gdp: exports,
    imports_pct_gdp: imports,
    vintage: row.vintage === null ? null : String(row.vintage),
  };
}

export const getTradeOpenness = defineRoute<CodeParams>({
  id: 'getTradeOpenness',
  method: 'GET',
  tag: 'country',
  paths: ['/api/analytics/trade-openness/{code}'],
  examples: ['/api/analytics/trade-openness/DE', '/api/analytics/trade-openness/usa', '/api/analytics/trade-openness/EUU'],
  summary: 'Trade openness: exports plus imports of goods and services as percent of GDP',
  description:
    'trade_openness_pct = NE.EXP.GNFS.ZS + NE.IMP.GNFS.ZS (World Bank WDI, % of GDP) for the latest year in which both exist for the ' +
    `country (\`year\`), rounded to ${OPENNESS_DECIMALS} decimals; exports_pct_gdp and imports_pct_gdp are the two published values, unrounded. ` +
    '`vintage` is the later WDI "Last Updated Date" of the two. A valid country without both series answers 200 with available: false and nulls.',
  paid: true,
  params: { code: codePathParam('DE', CODE_TEXT) },
  response: tradeOpennessResponse,
  async handle({ code }, { db }) {
    const place = await resolveCode(db, code);
    const openness = await tradeOpenness(db, place.iso3);
    return {
      endpoint: 'trade_openness',
      country: placeOut(place),
      available: openness.available,
      formula: 'NE.EXP.GNFS.ZS + NE.IMP.GNFS.ZS, the latest year both exist',
      trade_openness_pct: openness.value,
      year: openness.year,
      exports_pct_gdp: openness.exports_pct_gdp,
      imports_pct_gdp: openness.imports_pct_gdp,
      vintage: openness.vintage,
    };
  },
});

export const getDebtBurden = defineRoute<CodeParams>({
  id: 'getDebtBurden',
  method: 'GET',
  tag: 'country',
  paths: ['/api/analytics/debt-burden/{code}'],
  examples: ['/api/analytics/debt-burden/US', '/api/analytics/debt-burden/deu'],
  summary: 'Debt burden: central government debt as percent of GDP, the latest year',
  description:
    'gov_debt_pct_gdp = GC.DOD.TOTL.GD.ZS (World Bank WDI, central government debt, total, % of GDP), the latest non-missing year, as ' +
    'published, with its `year` and `vintage`. A valid country without the series answers 200 with available: false.',
  paid: true,
  params: { code: codePathParam('US', CODE_TEXT) },
  response: debtBurdenResponse,
  async handle({ code }, { db }) {
    const place = await resolveCode(db, code);
    const debt = yearValueOut((await devbankLatest(db, place.iso3)).get('GOV_DEBT_PCT_GDP'));
    return {
      endpoint: 'debt_burden',
      country: placeOut(place),
      available: debt.available,
      formula: 'GC.DOD.TOTL.GD.ZS, the latest year',
      gov_debt_pct_gdp: debt,
    };
  },
});

export const getEnergyDependency = defineRoute<CodeParams>({
  id: 'getEnergyDependency',
  method: 'GET',
  tag: 'country',
  paths: ['/api/analytics/energy-dependency/{code}'],
  examples: ['/api/analytics/energy-dependency/DE', '/api/analytics/energy-dependency/fra'],
  summary: 'Energy dependency: net energy imports and the renewable share',
  description:
    'energy_imports_pct = EG.IMP.CONS.ZS (energy imports, net, % of energy use; negative for a net exporter) and renewable_share_pct = ' +
    'EG.FEC.RNEW.ZS (renewable energy, % of final energy consumption), each its own latest non-missing year (the years may differ), as ' +
    'published. `available` is true when either exists; a valid country without them answers 200 with available: false.',
  paid: true,
  params: { code: codePathParam('DE', CODE_TEXT) },
  response: energyDependencyResponse,
  async handle({ code }, { db }) {
    const place = await resolveCode(db, code);
    const latest = await devbankLatest(db, place.iso3);
    const imports = yearValueOut(latest.get('ENERGY_IMPORTS_PCT'));
    const renewables = yearValueOut(latest.get('RENEWABLE_SHARE_PCT'));
    return {
      endpoint: 'energy_dependency',
      country: placeOut(place),
      available: imports.available || renewables.available,
      formula: 'EG.IMP.CONS.ZS and EG.FEC.RNEW.ZS, each its latest year',
      energy_imports_pct: imports,
      renewable_share_pct: renewables,
    };
  },
});

export const getCountryStructure = defineRoute<CodeParams>({
  id: 'getCountryStructure',
  method: 'GET',
  tag: 'country',
  paths: ['/api/analytics/country-structure/{code}'],
  examples: ['/api/analytics/country-structure/DE', '/api/analytics/country-structure/usa', '/api/analytics/country-structure/WLD'],
  summary: 'Country structure: trade openness, debt, energy, FDI, demographics and carbon intensity',
  description:
    'Six parts, each with `available`: trade_openness (as /analytics/trade-openness), debt (GC.DOD.TOTL.GD.ZS), energy (EG.IMP.CONS.ZS, ' +
    'EG.FEC.RNEW.ZS), fdi (BX.KLT.DINV.WD.GD.ZS, net inflows % of GDP), demographics (SP.POP.TOTL and SP.POP.GROW) and carbon_intensity ' +
    '(EN.GHG.CO2.RT.GDP.PP.KD, else the retired EN.ATM.CO2E.KD.GD: `wdi_code` says which). Every value is its series\' latest non-missing year ' +
    '(`year`; the years may differ between parts), as published. A part is available when any of its values is; `available` when any part is.',
  paid: true,
  params: { code: codePathParam('DE', CODE_TEXT) },
  response: countryStructureResponse,
  async handle({ code }, { db }) {
    const place = await resolveCode(db, code);
    const { latest, openness } = await structureOf(db, place.iso3);
    const value = (indicator: string) => yearValueOut(latest.get(indicator));
    const debt = value('GOV_DEBT_PCT_GDP');
    const imports = value('ENERGY_IMPORTS_PCT');
    const renewables = value('RENEWABLE_SHARE_PCT');
    const fdi = value('FDI_PCT_GDP');
    const population = value('POPULATION');
    const growth = value('POP_GROWTH');
    const co2 = value('CO2_INTENSITY');
    const parts = {
      trade_openness: openness,
      debt: { available: debt.available, gov_debt_pct_gdp: debt },
      energy: { available: imports.available || renewables.available, energy_imports_pct: imports, renewable_share_pct: renewables },
      fdi: { available: fdi.available, fdi_pct_gdp: fdi },
      demographics: { available: population.available || growth.available, population, population_growth_pct: growth },
      carbon_intensity: { available: co2.available, co2_intensity: co2 },
    };
    return {
      endpoint: 'country_structure',
      country: placeOut(place),
      available: Object.values(parts).some((part) => part.available),
      parts,
    };
  },
});

/** Every latest devbank value of an area and its trade openness, in one statement. */
async function structureOf(db: Database, area: string): Promise<{ latest: Map<string, DevbankValue>; openness: ReturnType<typeof opennessOf> }> {
  const rows = await db.all(
    `SELECT l.code, l.year, l.period, l.value, l.vintage, l.wdi_code,
            o.year AS openness_year, o.exports_pct_gdp, o.imports_pct_gdp, o.vintage AS openness_vintage
       FROM (SELECT 1) LEFT JOIN devbank_latest l ON l.area = $area LEFT JOIN devbank_openness o ON o.area = $area`,
    { area },
  );
  const first = rows[0];
  const openness = opennessOf(first?.openness_year === null || first === undefined ? undefined : {
    year: first.openness_year, exports_pct_gdp: first.exports_pct_gdp, imports_pct_gdp: first.imports_pct_gdp, vintage: first.openness_vintage,
  });
  return { latest: new Map(rows.filter((row) => row.code !== null).map((row) => [String(row.code), latestValueOf(row)])), openness };
}
