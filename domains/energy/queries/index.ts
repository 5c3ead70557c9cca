// The energy domain's routes (Eurostat energy statistics, EU ETS, World Bank energy indicators) and
// the rollups they read (tables.ts).
import isoCountries from '../../../reference/isoCountries.ts';
import type { Database } from '../../../engine/database.ts';
import { getEnergyBalance, getEnergyElectricity, getEnergyIndicator, getEnergyProfile, getEnergyScorecard } from './cards.ts';
import { getEtsInstallations, getEtsSummary } from './ets.ts';
import { getEnergyCompleteness, getEnergyRankings } from './rankings.ts';
import { compareEnergy, getEnergyDataset, getEnergyLatest, getEnergySeries, listEnergyCountries, listEnergyDatasets } from './series.ts';
import { buildEnergyTables, tableExists } from './tables.ts';

export const energyRoutes = [
  listEnergyDatasets, getEnergyDataset, listEnergyCountries, getEnergySeries, getEnergyLatest, compareEnergy,
  getEnergyIndicator, getEnergyProfile, getEnergyBalance, getEnergyElectricity, getEnergyScorecard,
  getEnergyRankings, getEnergyCompleteness, getEtsSummary, getEtsInstallations,
];

/** ISO3 -> Eurostat geo (GR -> EL, GB -> UK) for every ISO 3166 country, and the WDI's EUU (European Union) -> EU27_2020. */
function isoCodes(): Array<[string, string]> {
  const eu: Record<string, string> = { GR: 'EL', GB: 'UK' };
  const countries = Object.entries(isoCountries.getAlpha3Codes()).map(([iso3, iso2]): [string, string] => [iso3, Object.hasOwn(eu, iso2) ? eu[iso2] : iso2]);
  return [...countries, ['EUU', 'EU27_2020']];
}

/** Builds the energy rollups; estat_observations, estat_datasets and the ETS tables must be loaded (wdi_observations when present). */
export async function buildEnergy(db: Database): Promise<void> {
  const wdi = (await tableExists(db, 'wdi_observations'))
    ? 'SELECT country_code AS iso3, indicator_code AS indicator, year, value FROM wdi_observations'
    : null;
  await buildEnergyTables(db, { sql: wdi }, isoCodes());
}
