// The indicators of the country domain (reference/analytics.md, Country): the cooperation
// organisation's (OECD, `coop`) short-term indicators and the development bank's (World Bank WDI,
// `devbank`) structural indicators, with the code part of their series codes. Pure data, read by
// both the ingest and the queries of the domain.

export const COOP_INDICATORS = ['CLI', 'BCI', 'CCI', 'INDPRO', 'RETAIL', 'UNEMP'] as const;
export type CoopIndicator = (typeof COOP_INDICATORS)[number];

export interface CoopIndicatorInfo {
  code: CoopIndicator;
  name: string;
  unit: string;
}

export const COOP_INFO: ReadonlyMap<CoopIndicator, CoopIndicatorInfo> = new Map(
  (
    [
      ['CLI', 'Composite leading indicator, amplitude adjusted (long-term average = 100)', 'index'],
      ['BCI', 'Business confidence indicator, amplitude adjusted (long-term average = 100)', 'index'],
      ['CCI', 'Consumer confidence indicator, amplitude adjusted (long-term average = 100)', 'index'],
      ['INDPRO', 'Industrial production, volume index (total industry excluding construction)', 'index'],
      ['RETAIL', 'Retail trade, volume index', 'index'],
      ['UNEMP', 'Harmonised unemployment rate, % of the labour force', 'percent'],
    ] as const
  ).map(([code, name, unit]) => [code, { code, name, unit }]),
);

/** Frequencies in the order a series prefers them: the monthly series when there is one. */
export const FREQUENCY_PREFERENCE = ['M', 'Q', 'A'] as const;
export type Frequency = (typeof FREQUENCY_PREFERENCE)[number];

export interface DevbankIndicator {
  /** The code part of DEVBANK_<code>_<ISO3> and the key in the devbank country card (lower case). */
  code: string;
  /** WDI series ids, the preferred first (CO2 intensity falls back on the retired CAIT series). */
  wdi: readonly string[];
  name: string;
  unit: string;
}

export const DEVBANK_INDICATORS: readonly DevbankIndicator[] = [
  { code: 'GDP_PER_CAPITA', wdi: ['NY.GDP.PCAP.CD'], name: 'GDP per capita (current US$)', unit: 'US$' },
  { code: 'GDP_GROWTH', wdi: ['NY.GDP.MKTP.KD.ZG'], name: 'GDP growth (annual %)', unit: 'percent' },
  { code: 'INFLATION', wdi: ['FP.CPI.TOTL.ZG'], name: 'Inflation, consumer prices (annual %)', unit: 'percent' },
  { code: 'UNEMPLOYMENT', wdi: ['SL.UEM.TOTL.ZS'], name: 'Unemployment, total (% of total labor force) (modeled ILO estimate)', unit: 'percent' },
  { code: 'EXPORTS_PCT_GDP', wdi: ['NE.EXP.GNFS.ZS'], name: 'Exports of goods and services (% of GDP)', unit: 'percent of GDP' },
  { code: 'IMPORTS_PCT_GDP', wdi: ['NE.IMP.GNFS.ZS'], name: 'Imports of goods and services (% of GDP)', unit: 'percent of GDP' },
  { code: 'GOV_DEBT_PCT_GDP', wdi: ['GC.DOD.TOTL.GD.ZS'], name: 'Central government debt, total (% of GDP)', unit: 'percent of GDP' },
  { code: 'ENERGY_IMPORTS_PCT', wdi: ['EG.IMP.CONS.ZS'], name: 'Energy imports, net (% of energy use)', unit: 'percent of energy use' },
  { code: 'RENEWABLE_SHARE_PCT', wdi: ['EG.FEC.RNEW.ZS'], name: 'Renewable energy consumption (% of total final energy consumption)', unit: 'percent' },
  { code: 'FDI_PCT_GDP', wdi: ['BX.KLT.DINV.WD.GD.ZS'], name: 'Foreign direct investment, net inflows (% of GDP)', unit: 'percent of GDP' },
  { code: 'POPULATION', wdi: ['SP.POP.TOTL'], name: 'Population, total', unit: 'persons' },
  { code: 'POP_GROWTH', wdi: ['SP.POP.GROW'], name: 'Population growth (annual %)', unit: 'percent' },
  {
    code: 'CO2_INTENSITY',
    wdi: ['EN.GHG.CO2.RT.GDP.PP.KD', 'EN.ATM.CO2E.KD.GD'],
    name: 'CO2 emissions per unit of GDP (kg per PPP $ of GDP, constant 2021 international $; the older series: kg per 2015 US$ of GDP)',
    unit: 'kg CO2 per $ of GDP',
  },
];

export const DEVBANK_BY_CODE: ReadonlyMap<string, DevbankIndicator> = new Map(DEVBANK_INDICATORS.map((i) => [i.code, i]));

/** Every WDI series id the domain reads. */
export const DEVBANK_WDI_IDS: readonly string[] = DEVBANK_INDICATORS.flatMap((i) => i.wdi);
