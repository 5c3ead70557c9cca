// Agri-food: EU agri-food portal prices (cereals, oilseeds, pigmeat).
import { defineDomain } from '../contract.ts';
import { agrifoodIngestCommand } from './ingest/command.ts';
import { agrifoodSampleSource } from './ingest/sampleSource.ts';
import { getCommodityHistory, getCommodityPrices, listCommodities, listCountries } from './queries/commodities.ts';
import { getDataset, listDatasets } from './queries/datasets.ts';
import { listPrices } from './queries/prices.ts';
import { getLatestPrices, getPriceAnomalies, getPriceChanges } from './queries/series.ts';
import { loadAgrifood } from './queries/tables.ts';

export const agrifoodDomain = defineDomain({
  name: 'agrifood',
  tags: [{ tag: 'agrifood', title: 'Agri-food prices', description: 'EU agri-food price datasets: cereals, oilseeds, pigmeat.' }],
  routes: [
    listDatasets, getDataset, listCommodities, getCommodityPrices, getCommodityHistory, listCountries, listPrices,
    getPriceChanges, getPriceAnomalies, getLatestPrices,
  ],
  load: loadAgrifood,
  sources: [{ command: agrifoodIngestCommand, sample: agrifoodSampleSource }],
});
