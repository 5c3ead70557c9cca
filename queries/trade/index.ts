// The trade and markets domain (EU customs trade of cereals, and market views combining it with the
// agri-food prices): its routes and loader. The loader reads agri_prices, so it runs after loadAgrifood.
import { getChanges } from './changes.ts';
import { compareMarkets, listMarketAnomalies, listMarketChanges } from './marketLists.ts';
import { getMarket, getMarketHistory, getMarketInsights } from './markets.ts';
import { loadTrade } from './tables.ts';
import { getTradeBalance, getTradePartners, listTrade } from './trade.ts';

// The fixed paths (/markets/changes, ...) come before /markets/{country}/{commodity}.
export const tradeRoutes = [
  getChanges, listTrade, getTradeBalance, getTradePartners,
  listMarketChanges, listMarketAnomalies, compareMarkets, getMarket, getMarketHistory, getMarketInsights,
];

export { loadTrade };
