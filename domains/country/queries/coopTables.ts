// The OECD (coop) tables, built once at load from coop_observations (every vintage):
//   coop_current  per (indicator, area, freq, period) the row of the newest vintage (then the latest
//                 import, then the later file of one batch): the revision that is served;
//   coop_series   the served observations with a value, of the preferred frequency of each
//                 (indicator, area): monthly, else quarterly, else annual;
//   coop_latest   per (indicator, area) the newest period of coop_series;
//   coop_areas    the areas with data, their label when a file gave one, and whether the code is an
//                 aggregate (not an ISO 3166 alpha-3 country).
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { COOP_DATASET, COOP_OBSERVATIONS } from '../datasets.ts';
import { isoCountry } from './codes.ts';

const FREQ_RANK = `CASE freq WHEN 'M' THEN 1 WHEN 'Q' THEN 2 ELSE 3 END`;

export async function loadCoop(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, COOP_OBSERVATIONS, dataDir);
  await db.run(`CREATE TABLE coop_current AS
    SELECT * EXCLUDE (pick) FROM (
      SELECT *, row_number() OVER (PARTITION BY indicator, area, freq, period
                                   ORDER BY vintage DESC, import_date DESC, batch_order DESC, file_hash DESC) AS pick
        FROM ${COOP_DATASET}) WHERE pick = 1`);
  await db.run(`CREATE TABLE coop_series AS
    WITH preferred AS (
      SELECT indicator, area, min(${FREQ_RANK}) AS freq_rank FROM coop_current WHERE value IS NOT NULL GROUP BY indicator, area)
    SELECT c.indicator, c.area, c.freq, c.period, c.value, c.flag, strftime(c.vintage, '%Y-%m-%d') AS vintage,
           c.source_series, c.source_format, c.source_file
      FROM coop_current c JOIN preferred p ON p.indicator = c.indicator AND p.area = c.area AND p.freq_rank = ${FREQ_RANK.replaceAll('freq', 'c.freq')}
     WHERE c.value IS NOT NULL
     ORDER BY c.indicator, c.area, c.period DESC`);
  await db.run(`CREATE TABLE coop_latest AS
    SELECT * EXCLUDE (pick) FROM (
      SELECT *, row_number() OVER (PARTITION BY indicator, area ORDER BY period DESC) AS pick FROM coop_series) WHERE pick = 1
     ORDER BY area, indicator`);
  await db.run(`CREATE TABLE coop_areas (area VARCHAR, name VARCHAR, aggregate BOOLEAN)`);
  const areas = await db.all(`SELECT area, max(area_name) AS name FROM ${COOP_DATASET} GROUP BY area ORDER BY area`);
  for (const row of areas) {
    const country = isoCountry(String(row.area));
    await db.run('INSERT INTO coop_areas VALUES ($area, $name, $aggregate)', {
      area: String(row.area),
      name: country?.name ?? (row.name === null ? AGGREGATE_NAMES.get(String(row.area)) ?? String(row.area) : String(row.name)),
      aggregate: country === null,
    });
  }
}

/** Names of the OECD aggregates of the legacy export, which carries no labels. */
const AGGREGATE_NAMES: ReadonlyMap<string, string> = new Map([
  ['OECD', 'OECD - Total'],
  ['OECDE', 'OECD - Europe'],
  ['G-7', 'G7'],
  ['G7', 'G7'],
  ['G-20', 'G20'],
  ['G20', 'G20'],
  ['EA19', 'Euro area (19 countries)'],
  ['EA20', 'Euro area (20 countries)'],
  ['EU27_2020', 'European Union (27 countries from 01/02/2020)'],
  ['EU28', 'European Union (28 countries)'],
  ['NAFTA', 'NAFTA'],
  ['A5M', 'Major five Asia'],
  ['OECD_REP', 'OECD + major six non-member economies'],
]);
