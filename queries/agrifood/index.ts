// The agri-food domain (EU agri-food portal prices: cereals, oilseeds, pigmeat): its routes and loader.
import { getCommodityHistory, getCommodityPrices, listCommodities, listCountries } from './commodities.ts';
import { getDataset, listDatasets } from './datasets.ts';
import { listPrices } from './prices.ts';
import { getLatestPrices, getPriceAnomalies, getPriceChanges } from './series.ts';
import { loadAgrifood } from './tables.ts';

export const agrifoodRoutes = [
  listDatasets, getDataset, listCommodities, getCommodityPrices, getCommodityHistory, listCountries, listPrices,
  getPriceChanges, getPriceAnomalies, getLatestPrices,
];

export { loadAgrifood };
