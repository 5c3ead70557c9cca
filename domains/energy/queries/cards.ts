// The per-country cards: indicator, profile, balance, electricity, scorecard. Each reads one row of the
// rollups of tables.ts (energy_geo_cards for the geo-only cards). A valid geo without data answers 200 with available: false (and each part its own
// `available`); a malformed geo is a 400. Formulas and bands: ../shared/reference/analytics.md (Energy).
import type { Database } from '../../../engine/database.ts';
import type { JsonValue, Row } from '../../../engine/json.ts';
import { defineRoute, type JsonSchema } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { groupKey, heldGroups, type HeldGroups } from '../../../queries/shared/heldGroups.ts';
import { enumOf, integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import {
  BALANCE_METRICS, BALANCE_UNITS, DEVBANK, ELECTRICITY_METRICS, FLAGSHIP_DATASETS, IMPORT_DEPENDENCY_BANDS, RENEWABLES_PACE_BANDS,
  RENEWABLES_PACE_POINTS, SELF_SUFFICIENCY_BANDS, SIEC_LABELS,
} from './constants.ts';
import { geoParam, parseGeo, type Geo } from './geo.ts';
import { yearParam } from './params.ts';

const number: JsonSchema = { type: 'number' };
const boolean: JsonSchema = { type: 'boolean' };
const GEO_TEXT = 'Country: ISO 3166-1 alpha-2, any case (Greece EL or GR, the United Kingdom UK or GB), or a Eurostat aggregate such as EU27_2020. The reply names the code used.';
const pathGeo = geoParam(GEO_TEXT, { in: 'path', required: true, example: 'DE' });
const geoFields = { geo: text, geo_name: nullable(text) };

// ---------- balance and electricity rows, held ----------

// The balance, mix and electricity tables have a row per geo, siec, unit and year (a few thousand rows), held
// per database in the order the cards read them (queries/shared/heldGroups.ts): a card's lookup issues no statement.
interface CardTable {
  table: string;
  groups: (db: Database) => Promise<HeldGroups | null>;
}
const cardTable = (table: string): CardTable => ({
  table, groups: heldGroups({ table, columns: '*', key: ['geo', 'siec', 'unit'], orderBy: 'complete DESC, year DESC' }),
});
export const BALANCE_CARD = cardTable('energy_balance_card');
export const ELECTRICITY_CARD = cardTable('energy_electricity');
const heldMix = heldGroups({ table: 'energy_mix', columns: 'siec, value, share_pct', key: ['geo', 'unit', 'year'], orderBy: 'value DESC, siec' });

/** The row of `period`, else the latest complete year's, else the latest year's (undefined: none). */
export async function latestCardRow(db: Database, card: CardTable, key: { geo: string; siec: string; unit: string; period: number | null }): Promise<Row | undefined> {
  const groups = await card.groups(db);
  if (groups) return (groups.get(groupKey([key.geo, key.siec, key.unit])) ?? []).find((row) => key.period === null || row.year === key.period);
  const [row] = await db.all(
    `SELECT * FROM ${card.table} WHERE geo = $geo AND siec = $siec AND unit = $unit AND (CAST($period AS INTEGER) IS NULL OR year = $period)
     ORDER BY complete DESC, year DESC LIMIT 1`,
    key,
  );
  return row;
}

/** The year's gross inland consumption by fuel, largest first (ties by siec). */
export async function mixRows(db: Database, geo: string, unit: string, year: number): Promise<readonly Row[]> {
  const groups = await heldMix(db);
  if (groups) return groups.get(groupKey([geo, unit, year])) ?? [];
  return db.all('SELECT siec, value, share_pct FROM energy_mix WHERE geo = $geo AND unit = $unit AND year = $year ORDER BY value DESC, siec', { geo, unit, year });
}

// ---------- indicator card ----------

export const INDICATORS = ['energy_intensity', 'renewables_share', 'electricity_price'] as const;

const indicatorEntry = object(
  {
    available: boolean, value: nullable(number), unit: nullable(text), period: nullable(text), previous_value: number, previous_period: text,
    yoy_change: number, yoy_change_pct: nullable(number),
  },
  ['previous_value', 'previous_period', 'yoy_change', 'yoy_change_pct'],
);

/** The geo's row of energy_geo_cards (the columns asked for), or null when the snapshot has nothing for it. */
async function geoCards(db: Database, geo: string, columns: string): Promise<Row | null> {
  const [row] = await db.all(`SELECT ${columns} FROM energy_geo_cards WHERE geo = $geo`, { geo });
  return row ?? null;
}

/** A list column of energy_geo_cards as its items ([] when null: nothing for the geo). */
const listItems = <T = Row>(value: JsonValue | undefined): T[] => (Array.isArray(value) ? (value as T[]) : []);

function indicatorCard(cards: readonly Row[]): Record<string, Record<string, JsonValue>> {
  const byIndicator = new Map(cards.map((row) => [String(row.indicator), row]));
  const card: Record<string, Record<string, JsonValue>> = {};
  for (const indicator of INDICATORS) {
    const row = byIndicator.get(indicator);
    if (!row) {
      card[indicator] = { available: false, value: null, unit: null, period: null };
      continue;
    }
    const entry: Record<string, JsonValue> = { available: true, value: row.value, unit: row.unit, period: row.period };
    if (row.previous_value !== null) {
      Object.assign(entry, { previous_value: row.previous_value, previous_period: row.previous_period, yoy_change: row.yoy_change, yoy_change_pct: row.yoy_change_pct });
    }
    card[indicator] = entry;
  }
  return card;
}

const indicatorsSchema = object(Object.fromEntries(INDICATORS.map((i) => [i, indicatorEntry])));

export const getEnergyIndicator = defineRoute<{ geo: string }>({
  id: 'getEnergyIndicator',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/indicator/{geo}'],
  examples: ['/api/v1/energy/indicator/DE', '/api/v1/energy/indicator/gr'],
  summary: 'Energy intensity, renewables share and household electricity price, with the year-over-year change',
  description:
    'One entry per indicator, each with its own `available`: energy_intensity (nrg_ind_ei, kgoe per thousand euro in chain-linked volumes, ' +
    'unit KGOE_TEUR_CLV<base>; the newest base year present wins), renewables_share (nrg_ind_ren, nrg_bal REN, unit PC) and electricity_price ' +
    '(nrg_pc_204: households, band KWH2500-4999, all taxes I_TAX, EUR per kWh, the latest half-year). The latest period with a value; when ' +
    'the prior period exists (the year before; for the price the same half-year one year earlier) also previous_value, previous_period, ' +
    'yoy_change = value - previous (rounded to 4 decimals) and yoy_change_pct = change / |previous| * 100 (2 decimals; null when previous is 0). ' +
    'Values as published. `available` is true when any indicator is.',
  paid: true,
  params: { geo: pathGeo },
  response: object({ endpoint: { const: 'energy_indicator' }, ...geoFields, available: boolean, indicators: indicatorsSchema }),
  async handle({ geo }, { db }) {
    const g = parseGeo(geo, 'geo');
    const indicators = indicatorCard(listItems((await geoCards(db, g.code, 'cards'))?.cards));
    return { endpoint: 'energy_indicator', geo: g.code, geo_name: g.name, available: Object.values(indicators).some((i) => i.available), indicators };
  },
});

// ---------- profile ----------

const devbankEntry = object({ available: boolean, value: nullable(number), year: nullable(integer), indicator_code: text });

function devbankCard(rows: readonly Row[]): Record<string, Record<string, JsonValue>> {
  const byCode = new Map(rows.map((row) => [String(row.indicator), row]));
  const card: Record<string, Record<string, JsonValue>> = {};
  for (const [name, code] of Object.entries(DEVBANK)) {
    const row = byCode.get(code);
    card[name] = row ? { available: true, value: row.value, year: row.year, indicator_code: code } : { available: false, value: null, year: null, indicator_code: code };
  }
  return card;
}

export const getEnergyProfile = defineRoute<{ geo: string }>({
  id: 'getEnergyProfile',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/profile/{geo}'],
  examples: ['/api/v1/energy/profile/DE', '/api/v1/energy/profile/el'],
  summary: 'Statistics-office indicator cards joined with the development bank\'s energy imports and renewable share',
  description:
    '`statsoffice`: the indicator card (see /energy/indicator/{geo}) with its own `available`. `devbank`: World Bank WDI energy_imports_pct ' +
    '(EG.IMP.CONS.ZS, energy imports, net, % of energy use) and renewable_share_pct (EG.FEC.RNEW.ZS, % of final energy consumption), each the ' +
    'latest non-missing year with that `year`, values as published; `devbank.available` is true when either exists. The WDI codes are ISO3, ' +
    'matched to the geo through ISO 3166 (EU27_2020 reads the WDI aggregate EUU; other aggregates have no match). `available` is true when either part is.',
  paid: true,
  params: { geo: pathGeo },
  response: object({
    endpoint: { const: 'energy_profile' }, ...geoFields, available: boolean,
    statsoffice: object({ available: boolean, indicators: indicatorsSchema }),
    devbank: object({ available: boolean, energy_imports_pct: devbankEntry, renewable_share_pct: devbankEntry }),
  }),
  async handle({ geo }, { db }) {
    const g = parseGeo(geo, 'geo');
    const row = await geoCards(db, g.code, 'cards, devbank');
    const indicators = indicatorCard(listItems(row?.cards));
    const devbank = devbankCard(listItems(row?.devbank));
    const statsAvailable = Object.values(indicators).some((i) => i.available);
    const devAvailable = Object.values(devbank).some((i) => i.available);
    return {
      endpoint: 'energy_profile', geo: g.code, geo_name: g.name, available: statsAvailable || devAvailable,
      statsoffice: { available: statsAvailable, indicators }, devbank: { available: devAvailable, ...devbank },
    };
  },
});

// ---------- balance ----------

const metricValue = object({ value: nullable(number), unit: text, period: nullable(integer), code: text });

interface BalanceParams {
  geo: string;
  unit?: string;
  siec?: string;
  period?: number;
  view?: 'mix';
}

const SIEC = /^[A-Z0-9][A-Z0-9_-]{0,29}$/;

function parseSiec(raw: string | undefined, fallback: string): string {
  const text = (raw ?? fallback).trim().toUpperCase();
  if (!SIEC.test(text)) throw invalidParameter('siec', `siec must be a SIEC code such as TOTAL, G3000 or E7000 (got "${raw}")`);
  return text;
}


export const getEnergyBalance = defineRoute<BalanceParams>({
  id: 'getEnergyBalance',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/balance/{geo}'],
  examples: ['/api/v1/energy/balance/DE', '/api/v1/energy/balance/pl?view=mix', '/api/v1/energy/balance/FR?unit=TJ&siec=G3000&period=2020'],
  summary: 'Simplified energy balance: production, gross inland consumption, final consumption, imports, exports, import dependency',
  description:
    'From nrg_bal_s (annual) for the siec (default TOTAL) and unit (KTOE default, TJ, GWH): primary_production PPRD, gross_inland_consumption GIC, ' +
    'final_energy_consumption FC_E, imports IMP, exports EXP, each {value, unit, period, code}, values as published. Without `period`, the ' +
    'latest complete year: the latest year in which all five exist for the geo, siec and unit (when no year is complete, the latest year with ' +
    'any of them, and `complete` is false). derived.import_dependency_pct = (IMP - EXP) / GAE * 100 (gross available energy, as Eurostat), ' +
    'always on TOTAL in KTOE for the same year whatever siec/unit the metrics show, rounded to 2 decimals; null when GAE is missing or 0. ' +
    '`view=mix` adds `mix`: GIC by siec for that year and unit, each with share_pct of TOTAL GIC (2 decimals; negative for net exporters ' +
    'of a carrier), siec codes as published with an English label, largest first. A valid geo without data: available false.',
  paid: true,
  params: {
    geo: pathGeo,
    unit: { in: ['query'], description: 'KTOE (default), TJ or GWH, any case.', schema: { type: 'string', enum: [...BALANCE_UNITS] }, normalize: 'upper' },
    siec: { in: ['query'], description: 'SIEC fuel code as published (default TOTAL): C0000X0350-0370, G3000, O4000XBIO, RA000, N900H, E7000, H8000, ...', schema: { type: 'string', minLength: 1, maxLength: 30, examples: ['TOTAL'] } },
    period: yearParam('Year; default the latest complete year.'),
    view: { in: ['query'], description: '`mix` adds the fuel mix of gross inland consumption.', schema: { type: 'string', enum: ['mix'] }, normalize: 'lower' },
  },
  response: object(
    {
      endpoint: { const: 'energy_balance' }, ...geoFields, available: boolean, unit: text, siec: text, period: nullable(integer), complete: boolean,
      metrics: object(Object.fromEntries(Object.keys(BALANCE_METRICS).map((k) => [k, metricValue]))),
      derived: object({ import_dependency_pct: nullable(number), gross_available_energy_ktoe: nullable(number), period: nullable(integer) }),
      mix: listOf(object({ siec: text, label: nullable(text), value: number, share_pct: nullable(number) })),
    },
    ['mix'],
  ),
  async handle(params, { db }) {
    const g = parseGeo(params.geo, 'geo');
    const unit = params.unit ?? 'KTOE';
    const siec = parseSiec(params.siec, 'TOTAL');
    // The year's balance row with that year's import dependency (TOTAL KTOE): one row of energy_balance_card.
    const row = await latestCardRow(db, BALANCE_CARD, { geo: g.code, siec, unit, period: params.period ?? null });
    const year = row ? Number(row.year) : (params.period ?? null);
    const metrics: Record<string, JsonValue> = {};
    const column: Record<string, string> = { PPRD: 'pprd', GIC: 'gic', FC_E: 'fc_e', IMP: 'imp', EXP: 'exp' };
    for (const [name, code] of Object.entries(BALANCE_METRICS)) {
      const value = row ? (row[column[code]] ?? null) : null;
      metrics[name] = { value, unit, period: value === null ? null : year, code };
    }
    const dep = { import_dependency_pct: row?.dependency_pct ?? null, gae: row?.dependency_gae ?? null };
    const body: Record<string, JsonValue> = {
      endpoint: 'energy_balance', geo: g.code, geo_name: g.name, available: Boolean(row), unit, siec, period: row ? year : (params.period ?? null),
      complete: Boolean(row?.complete),
      metrics,
      derived: { import_dependency_pct: dep.import_dependency_pct, gross_available_energy_ktoe: dep.gae, period: row ? year : null },
    };
    if (params.view === 'mix') {
      const mix = row ? await mixRows(db, g.code, unit, year!) : [];
      body.mix = mix.map((m) => ({ siec: m.siec, label: Object.hasOwn(SIEC_LABELS, String(m.siec)) ? SIEC_LABELS[String(m.siec)] : null, value: m.value, share_pct: m.share_pct }));
    }
    return body;
  },
});

// ---------- electricity ----------

interface ElectricityParams {
  geo: string;
  unit?: string;
  siec?: string;
  period?: number;
}

export const getEnergyElectricity = defineRoute<ElectricityParams>({
  id: 'getEnergyElectricity',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/electricity/{geo}'],
  examples: ['/api/v1/energy/electricity/FR', '/api/v1/energy/electricity/de?period=2020'],
  summary: 'Electricity supply: gross and net production, final consumption, trade, self-sufficiency',
  description:
    'From nrg_cb_e (annual), siec default E7000, unit default GWH: gross_production GEP, net_production NEP, final_consumption (FC_E, or FC ' +
    'where that is the code of the file; `code` says which), imports IMP, exports EXP, each {value, unit, period, code}, values as published. ' +
    'Without `period`: the latest year in which GEP, IMP and EXP all exist (else the latest year with any metric). ' +
    'derived.self_sufficiency_pct = GEP / (GEP + IMP - EXP) * 100 (2 decimals; null when an input is missing or the denominator is 0); ' +
    'derived.trade_balance = EXP - IMP in the unit (4 decimals; positive = net exporter). A valid geo without data: available false.',
  paid: true,
  params: {
    geo: pathGeo,
    unit: { in: ['query'], description: 'Unit code (default GWH), any case.', schema: { type: 'string', minLength: 1, maxLength: 20, examples: ['GWH'] }, normalize: 'upper' },
    siec: { in: ['query'], description: 'SIEC code (default E7000, electricity).', schema: { type: 'string', minLength: 1, maxLength: 30, examples: ['E7000'] }, normalize: 'upper' },
    period: yearParam('Year; default the latest with production and trade.'),
  },
  response: object({
    endpoint: { const: 'energy_electricity' }, ...geoFields, available: boolean, unit: text, siec: text, period: nullable(integer),
    metrics: object(Object.fromEntries(Object.keys(ELECTRICITY_METRICS).map((k) => [k, metricValue]))),
    derived: object({ self_sufficiency_pct: nullable(number), trade_balance: nullable(number) }),
  }),
  async handle(params, { db }) {
    const g = parseGeo(params.geo, 'geo');
    const unit = params.unit ?? 'GWH';
    const siec = parseSiec(params.siec, 'E7000');
    const row = await latestCardRow(db, ELECTRICITY_CARD, { geo: g.code, siec, unit, period: params.period ?? null });
    const year = row ? Number(row.year) : null;
    const metrics: Record<string, JsonValue> = {};
    const columns: Record<string, [string, string]> = {
      gross_production: ['gep', 'GEP'], net_production: ['nep', 'NEP'], final_consumption: ['fc', String(row?.fc_code ?? 'FC_E')],
      imports: ['imp', 'IMP'], exports: ['exp', 'EXP'],
    };
    for (const [name, [column, code]] of Object.entries(columns)) {
      const value = row ? (row[column] ?? null) : null;
      metrics[name] = { value, unit, period: value === null ? null : year, code };
    }
    return {
      endpoint: 'energy_electricity', geo: g.code, geo_name: g.name, available: Boolean(row), unit, siec, period: row ? year : (params.period ?? null),
      metrics,
      derived: { self_sufficiency_pct: row?.self_sufficiency_pct ?? null, trade_balance: row?.trade_balance ?? null },
    };
  },
});

// ---------- scorecard ----------

export function importDependencyLabel(pct: number | null): string {
  if (pct === null) return 'unknown';
  return pct < IMPORT_DEPENDENCY_BANDS.moderate ? 'low' : pct < IMPORT_DEPENDENCY_BANDS.high ? 'moderate' : 'high';
}

export function selfSufficiencyLabel(pct: number | null): string {
  if (pct === null) return 'unknown';
  return pct < SELF_SUFFICIENCY_BANDS.balanced ? 'deficit' : pct <= SELF_SUFFICIENCY_BANDS.surplus ? 'balanced' : 'surplus';
}

export function renewablesPaceLabel(slope: number | null): string {
  if (slope === null) return 'unknown';
  if (slope < RENEWABLES_PACE_BANDS.slow) return 'reversing';
  if (slope < RENEWABLES_PACE_BANDS.steady) return 'slow';
  if (slope < RENEWABLES_PACE_BANDS.accelerating) return 'steady';
  return 'accelerating';
}

/**
 * By the EU27 countries of the year with a value: `atOrBelow` of `count` have a value <= this one (percentile
 * atOrBelow / count * 100). low: percentile <= 100/3 (the bottom third), medium: <= 200/3, high above; compared
 * in integers so a third is exact.
 */
export function etsPressureLabel(atOrBelow: number | null, count: number | null): string {
  if (atOrBelow === null || count === null || count === 0) return 'unknown';
  return atOrBelow * 3 <= count ? 'low' : atOrBelow * 3 <= 2 * count ? 'medium' : 'high';
}

/** Least-squares slope (per year) of the points, or null with fewer than `need` points. */
export function slope(points: ReadonlyArray<{ year: number; value: number }>, need = RENEWABLES_PACE_POINTS): number | null {
  if (points.length < need) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.year, 0) / n;
  const my = points.reduce((s, p) => s + p.value, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.year - mx) ** 2, 0);
  const sxy = points.reduce((s, p) => s + (p.year - mx) * (p.value - my), 0);
  return sxx === 0 ? null : sxy / sxx;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const labelled = (...labels: string[]) => enumOf(...labels, 'unknown');

export const getEnergyScorecard = defineRoute<{ geo: string }>({
  id: 'getEnergyScorecard',
  method: 'GET',
  tag: 'energy',
  paths: ['/api/v1/energy/scorecard/{geo}'],
  examples: ['/api/v1/energy/scorecard/DE', '/api/v1/energy/scorecard/mt'],
  summary: 'Energy scorecard: supply, electricity, fuel mix, prices, renewables, ETS carbon intensity, development-bank figures and regime signals',
  description:
    'Composes: supply (the balance\'s latest complete year on TOTAL KTOE with import_dependency_pct), electricity (E7000 GWH: self_sufficiency_pct, ' +
    'trade_balance), fuel_mix_top3 (largest GIC shares that year), the indicator card (prices, renewables, intensity), devbank (WDI), carbon ' +
    'and coverage (which flagship datasets and ETS have data for the geo). carbon.ets_emissions_per_gic = verified ETS emissions of the ' +
    'country\'s registry (t CO2e) / GIC (ktoe, TOTAL) of the same year, 2 decimals; carbon.ets_share_of_eu27 = the registry\'s emissions / the ' +
    'sum over the EU27 registries with data that year * 100, 2 decimals; both for the latest year both exist (`year`). Signals (bands half-open, ' +
    'lower bound in the band): import_dependency low < 30 <= moderate < 60 <= high; power_self_sufficiency deficit < 90 <= balanced <= 110 < surplus; ' +
    'renewables_pace = least-squares slope of the REN share over its last 4 annual points in pp per year (slope_pp_per_year, 4 decimals): ' +
    'reversing < 0 <= slow < 0.3 <= steady < 1.0 <= accelerating; ets_pressure by the percentile of ets_emissions_per_gic among the EU27 countries ' +
    'that year (eu27_percentile = share of them with a value <= this one, 0..100, 2 decimals): low when at most a third of them, medium when at ' +
    'most two thirds, high above (compared exactly, not on the rounded percentile). Bands apply to the figures as shown. A signal whose ' +
    'inputs are missing is `unknown`.',
  paid: true,
  params: { geo: pathGeo },
  response: object({
    endpoint: { const: 'energy_scorecard' }, ...geoFields, available: boolean,
    signals: object({
      import_dependency: labelled('low', 'moderate', 'high'),
      power_self_sufficiency: labelled('deficit', 'balanced', 'surplus'),
      renewables_pace: labelled('reversing', 'slow', 'steady', 'accelerating'),
      ets_pressure: labelled('low', 'medium', 'high'),
    }),
    supply: object({ available: boolean, period: nullable(integer), gross_inland_consumption_ktoe: nullable(number), primary_production_ktoe: nullable(number), import_dependency_pct: nullable(number) }),
    electricity: object({ available: boolean, period: nullable(integer), self_sufficiency_pct: nullable(number), trade_balance_gwh: nullable(number) }),
    fuel_mix_top3: listOf(object({ siec: text, label: nullable(text), share_pct: nullable(number) })),
    renewables: object({ available: boolean, slope_pp_per_year: nullable(number), points: integer }),
    indicators: indicatorsSchema,
    devbank: object({ available: boolean, energy_imports_pct: devbankEntry, renewable_share_pct: devbankEntry }),
    carbon: object({
      available: boolean, year: nullable(integer), ets_emissions: nullable(number), ets_emissions_per_gic: nullable(number),
      ets_share_of_eu27: nullable(number), eu27_percentile: nullable(number),
    }),
    coverage: object(Object.fromEntries([...FLAGSHIP_DATASETS, 'ets'].map((d) => [d, boolean]))),
  }),
  async handle({ geo }, { db }) {
    const g: Geo = parseGeo(geo, 'geo');
    const card: Row = (await geoCards(db, g.code, '*')) ?? {};
    const bal = card.supply_year === null || card.supply_year === undefined ? null : { year: card.supply_year, gic: card.supply_gic, pprd: card.supply_pprd };
    const supplyYear = bal ? Number(bal.year) : null;
    const dep = bal ? { import_dependency_pct: card.import_dependency_pct ?? null } : null;
    const elec = card.electricity_year === null || card.electricity_year === undefined
      ? null
      : { year: card.electricity_year, self_sufficiency_pct: card.self_sufficiency_pct, trade_balance: card.trade_balance };
    const mix = bal ? listItems(card.mix_top3) : [];
    const ren = listItems(card.renewables).slice(0, RENEWABLES_PACE_POINTS);
    const rawSlope = slope(ren.map((r) => ({ year: Number(r.year), value: Number(r.value) })));
    // Labels read the figure as shown (4 decimals), so a label always agrees with the number.
    const renSlope = rawSlope === null ? null : round(rawSlope, 4);
    const carbon = card.carbon_year === null || card.carbon_year === undefined
      ? undefined
      : {
        year: card.carbon_year, ets_emissions: card.ets_emissions, ets_per_gic: card.ets_per_gic, ets_share_of_eu27: card.ets_share_of_eu27,
        peers_at_or_below: card.peers_at_or_below, peers_count: card.peers_count,
      };
    const covered = new Set(listItems<string>(card.coverage));
    const indicators = indicatorCard(listItems(card.cards));
    const devbank = devbankCard(listItems(card.devbank));
    const importPct = (dep?.import_dependency_pct ?? null) as number | null;
    const selfPct = (elec?.self_sufficiency_pct ?? null) as number | null;
    const atOrBelow = carbon?.peers_at_or_below === null || carbon === undefined ? null : Number(carbon.peers_at_or_below);
    const peers = carbon?.peers_count === null || carbon === undefined ? null : Number(carbon.peers_count);
    const percentile = atOrBelow === null || !peers ? null : (atOrBelow * 100) / peers;
    const coverage = Object.fromEntries([...FLAGSHIP_DATASETS, 'ets'].map((d) => [d, covered.has(d)]));
    return {
      endpoint: 'energy_scorecard', geo: g.code, geo_name: g.name,
      available: covered.size > 0 || Object.values(devbank).some((d) => d.available),
      signals: {
        import_dependency: importDependencyLabel(importPct),
        power_self_sufficiency: selfSufficiencyLabel(selfPct),
        renewables_pace: renewablesPaceLabel(renSlope),
        ets_pressure: etsPressureLabel(atOrBelow, peers),
      },
      supply: {
        available: Boolean(bal), period: supplyYear, gross_inland_consumption_ktoe: (bal?.gic ?? null) as number | null,
        primary_production_ktoe: (bal?.pprd ?? null) as number | null, import_dependency_pct: importPct,
      },
      electricity: { available: Boolean(elec), period: elec ? Number(elec.year) : null, self_sufficiency_pct: selfPct, trade_balance_gwh: (elec?.trade_balance ?? null) as number | null },
      fuel_mix_top3: mix.map((m) => ({ siec: m.siec, label: Object.hasOwn(SIEC_LABELS, String(m.siec)) ? SIEC_LABELS[String(m.siec)] : null, share_pct: m.share_pct })),
      renewables: { available: ren.length > 0, slope_pp_per_year: renSlope, points: ren.length },
      indicators,
      devbank: { available: Object.values(devbank).some((d) => d.available), ...devbank },
      carbon: {
        available: Boolean(carbon), year: carbon ? Number(carbon.year) : null, ets_emissions: (carbon?.ets_emissions ?? null) as number | null,
        ets_emissions_per_gic: (carbon?.ets_per_gic ?? null) as number | null, ets_share_of_eu27: (carbon?.ets_share_of_eu27 ?? null) as number | null,
        eu27_percentile: percentile === null ? null : round(percentile, 2),
      },
      coverage,
    };
  },
});
