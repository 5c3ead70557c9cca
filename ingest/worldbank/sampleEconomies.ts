// The economies of the generated WDI sample, shared by the samples that write WDI series (the country
// domain writes most indicators, the energy domain EG.IMP.CONS.ZS and EG.FEC.RNEW.ZS): every economy
// of the sample carries every indicator, whichever sample writes it.

/** OECD members and partners (the country sample also writes their OECD series). */
export const SAMPLE_OECD_COUNTRIES = [
  'USA', 'CAN', 'MEX', 'GBR', 'DEU', 'FRA', 'ITA', 'ESP', 'NLD', 'BEL', 'AUT', 'CHE', 'SWE', 'NOR', 'DNK', 'FIN', 'IRL', 'PRT',
  'GRC', 'POL', 'CZE', 'HUN', 'SVK', 'SVN', 'EST', 'LVA', 'LTU', 'TUR', 'JPN', 'KOR', 'AUS', 'NZL', 'ISR', 'CHL', 'BRA', 'CHN',
  'IND', 'IDN', 'ZAF',
] as const;

/** Economies only in the WDI sample: no OECD data. */
export const SAMPLE_WDI_ONLY = ['BGR', 'ROU', 'HRV', 'CYP'] as const;

/** Every economy (ISO alpha-3) of the WDI sample. */
export const SAMPLE_WDI_ECONOMIES: readonly string[] = [...SAMPLE_OECD_COUNTRIES, ...SAMPLE_WDI_ONLY];

/** WDI series whose sample the energy domain writes (domains/energy/ingest/sample.ts), not the country domain. */
export const SAMPLE_WDI_OWNED_BY_ENERGY: ReadonlySet<string> = new Set(['EG.IMP.CONS.ZS', 'EG.FEC.RNEW.ZS']);
