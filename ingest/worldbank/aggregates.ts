// The WDI aggregate codes (regions, income and lending groups, demographic groups, World, "Not classified"):
// the fallback used to flag aggregates when no Metadata_Country file (blank Region = aggregate) was ingested.
// The 49 codes of the WDI releases of 2023-2024 (the real NE.EXP.GNFS.ZS bulk file: 266 rows = 217 economies + these 49).
export const WDI_AGGREGATE_CODES: ReadonlySet<string> = new Set([
  'AFE', 'AFW', 'ARB', 'CEB', 'CSS', 'EAP', 'EAR', 'EAS', 'ECA', 'ECS', 'EMU', 'EUU', 'FCS', 'HIC', 'HPC', 'IBD', 'IBT',
  'IDA', 'IDB', 'IDX', 'INX', 'LAC', 'LCN', 'LDC', 'LIC', 'LMC', 'LMY', 'LTE', 'MEA', 'MIC', 'MNA', 'NAC', 'OED', 'OSS',
  'PRE', 'PSS', 'PST', 'SAS', 'SSA', 'SSF', 'SST', 'TEA', 'TEC', 'TLA', 'TMN', 'TSA', 'TSS', 'UMC', 'WLD',
]);
