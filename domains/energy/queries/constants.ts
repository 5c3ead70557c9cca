// The energy domain's constants: EU27, the flagship datasets, the codes each card reads, the label
// bands of ../shared/reference/analytics.md (Energy). Bands are half-open: the lower bound belongs to the band.

/** EU27 (since 2020), Eurostat codes (Greece EL). */
export const EU27 = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'] as const;

export const FLAGSHIP_DATASETS = ['nrg_bal_s', 'nrg_cb_e', 'nrg_ind_ei', 'nrg_ind_ren', 'nrg_pc_204'] as const;

/** Balance metrics (nrg_bal_s nrg_bal codes). */
export const BALANCE_METRICS = {
  primary_production: 'PPRD',
  gross_inland_consumption: 'GIC',
  final_energy_consumption: 'FC_E',
  imports: 'IMP',
  exports: 'EXP',
} as const;

/** Electricity metrics (nrg_cb_e nrg_bal codes); final consumption is FC_E, or FC where the file uses that code. */
export const ELECTRICITY_METRICS = {
  gross_production: ['GEP'],
  net_production: ['NEP'],
  final_consumption: ['FC_E', 'FC'],
  imports: ['IMP'],
  exports: ['EXP'],
} as const;

export const BALANCE_UNITS = ['KTOE', 'TJ', 'GWH'] as const;

/** Indicator card sources. */
export const RENEWABLES = { dataset: 'nrg_ind_ren', nrg_bal: 'REN', unit: 'PC' } as const;
/** Energy intensity: nrg_ind_ei, kgoe per thousand euro in chain-linked volumes (unit KGOE_TEUR_CLV<base>; the newest base wins). */
export const INTENSITY = { dataset: 'nrg_ind_ei', unitPrefix: 'KGOE_TEUR_CLV' } as const;
/** Household electricity price: nrg_pc_204, band KWH2500-4999, all taxes, EUR per kWh, half-yearly. */
export const PRICE = { dataset: 'nrg_pc_204', nrg_cons: 'KWH2500-4999', tax: 'I_TAX', currency: 'EUR', unit: 'KWH' } as const;

/** World Bank WDI indicators of the profile. */
export const DEVBANK = { energy_imports_pct: 'EG.IMP.CONS.ZS', renewable_share_pct: 'EG.FEC.RNEW.ZS' } as const;

/** import_dependency: low < 30 <= moderate < 60 <= high (percent). */
export const IMPORT_DEPENDENCY_BANDS = { moderate: 30, high: 60 } as const;
/** power_self_sufficiency: deficit < 90 <= balanced <= 110 < surplus (percent). */
export const SELF_SUFFICIENCY_BANDS = { balanced: 90, surplus: 110 } as const;
/** renewables_pace (pp per year, least-squares slope over the last 4 annual points): reversing < 0 <= slow < 0.3 <= steady < 1.0 <= accelerating. */
export const RENEWABLES_PACE_BANDS = { slow: 0, steady: 0.3, accelerating: 1.0 } as const;
export const RENEWABLES_PACE_POINTS = 4;
/** Rankings: the metric's latest year with values for at least this many EU27 countries. */
export const RANKINGS_MIN_EU27 = 20;
/** Completeness: a geo passes when its latest period is at most this many years older than the dataset's newest. */
export const COMPLETENESS_MAX_LAG_YEARS = 2;

export const RANKING_METRICS = ['import_dependency_pct', 'self_sufficiency_pct', 'renewables_share', 'ets_emissions', 'ets_per_gic'] as const;
export type RankingMetric = (typeof RANKING_METRICS)[number];
/** Metrics where the lowest value ranks first. */
export const LOWER_IS_BETTER: ReadonlySet<RankingMetric> = new Set(['import_dependency_pct', 'ets_per_gic']);

/** English labels of the SIEC codes of nrg_bal_s (the fuel mix). */
export const SIEC_LABELS: Readonly<Record<string, string>> = {
  TOTAL: 'Total',
  'C0000X0350-0370': 'Solid fossil fuels',
  'C0350-0370': 'Manufactured gases',
  P1000: 'Peat and peat products',
  S2000: 'Oil shale and oil sands',
  G3000: 'Natural gas',
  O4000XBIO: 'Oil and petroleum products (excluding biofuel portion)',
  RA000: 'Renewables and biofuels',
  W6100_6220: 'Non-renewable waste',
  N900H: 'Nuclear heat',
  H8000: 'Heat',
  E7000: 'Electricity',
};

/** ETS registry code -> Eurostat geo (GR registry = EL, GB registry = UK); others are the same code. */
export const REGISTRY_TO_GEO: Readonly<Record<string, string>> = { GR: 'EL', GB: 'UK' };
