// The development bank (World Bank WDI) tables of the country domain, built once at load from the
// generic WDI tables (wdi_observations: one row per indicator, country and year WITH a value, so a
// blank year is absent, never 0; wdi_countries: names and the aggregate flag):
//   devbank_map      the allowlist: indicator code -> WDI series id, with the preference order
//                    (CO2 intensity: EN.GHG.CO2.RT.GDP.PP.KD, else the retired EN.ATM.CO2E.KD.GD);
//   devbank_series   per (indicator, area) the observations of the preferred WDI series the area has;
//   devbank_latest   per (indicator, area) the latest year of devbank_series;
//   devbank_openness per area the latest year in which both exports and imports (% of GDP) exist.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { DEVBANK_INDICATORS } from '../indicators.ts';

export async function loadDevbank(db: Database): Promise<void> {
  await db.run('CREATE TABLE devbank_map (code VARCHAR, wdi_code VARCHAR, preference INTEGER)');
  await db.appendRows('devbank_map', DEVBANK_INDICATORS.flatMap((i) => i.wdi.map((wdi, preference) => [i.code, wdi, preference])));
  await db.run(`CREATE TABLE devbank_series AS
    WITH candidates AS (
      SELECT m.code, o.country_code AS area, o.year, o.value, o.vintage, o.indicator_code AS wdi_code, m.preference
        FROM wdi_observations o JOIN devbank_map m ON m.wdi_code = o.indicator_code),
    chosen AS (SELECT code, area, min(preference) AS preference FROM candidates GROUP BY code, area)
    SELECT c.code, c.area, c.year, CAST(c.year AS VARCHAR) AS period, c.value,
           strftime(c.vintage, '%Y-%m-%d') AS vintage, c.wdi_code
      FROM candidates c JOIN chosen USING (code, area, preference)
     ORDER BY c.code, c.area, c.year DESC`);
  await db.run(`CREATE TABLE devbank_latest AS
    SELECT * EXCLUDE (pick) FROM (
      SELECT *, row_number() OVER (PARTITION BY code, area ORDER BY year DESC) AS pick FROM devbank_series) WHERE pick = 1
     ORDER BY area, code`);
  await db.run(`CREATE TABLE devbank_openness AS
    SELECT * EXCLUDE (pick) FROM (
      SELECT e.area, e.year, e.value AS exports_pct_gdp, i.value AS imports_pct_gdp,
             greatest(e.vintage, i.vintage) AS vintage,
             row_number() OVER (PARTITION BY e.area ORDER BY e.year DESC) AS pick
        FROM devbank_series e JOIN devbank_series i ON i.area = e.area AND i.year = e.year AND i.code = 'IMPORTS_PCT_GDP'
       WHERE e.code = 'EXPORTS_PCT_GDP') WHERE pick = 1
     ORDER BY area`);
}

export interface DevbankValue {
  value: number;
  year: number;
  period: string;
  wdiCode: string;
  vintage: string | null;
}

/** The latest non-missing year of every allowlisted indicator for an area, keyed by indicator code. */
export async function devbankLatest(db: Database, area: string): Promise<Map<string, DevbankValue>> {
  const rows = await db.all('SELECT code, year, period, value, vintage, wdi_code FROM devbank_latest WHERE area = $area', { area });
  return new Map(rows.map((row) => [String(row.code), latestValueOf(row)]));
}

/** A devbank_latest row (year, period, value, vintage, wdi_code) as a DevbankValue. */
export function latestValueOf(row: Row): DevbankValue {
  return { value: Number(row.value), year: Number(row.year), period: String(row.period), wdiCode: String(row.wdi_code), vintage: row.vintage === null ? null : String(row.vintage) };
}
