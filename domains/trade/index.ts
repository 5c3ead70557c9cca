// Trade and markets: EU customs trade of cereals (Comext), and market views that combine it with the
// agri-food prices (so its tables load after agrifood's).
import { defineDomain } from '../contract.ts';
import { tradeIngestCommand } from './ingest/command.ts';
import { tradeSampleSource } from './ingest/sampleSource.ts';
import { getChanges } from './queries/changes.ts';
import { compareMarkets, listMarketAnomalies, listMarketChanges } from './queries/marketLists.ts';
import { getMarket, getMarketHistory, getMarketInsights } from './queries/markets.ts';
import { loadTrade } from './queries/tables.ts';
import { getTradeBalance, getTradePartners, listTrade } from './queries/trade.ts';

export const tradeDomain = defineDomain({
  name: 'trade',
  tags: [
    { tag: 'trade', title: 'Trade', description: 'EU customs trade facts (value and quantity), trade balance and partners.' },
    { tag: 'markets', title: 'Markets', description: 'Market views that combine agri-food prices with trade.' },
  ],
  // The fixed paths (/markets/changes, ...) come before /markets/{country}/{commodity}.
  routes: [
    getChanges, listTrade, getTradeBalance, getTradePartners,
    listMarketChanges, listMarketAnomalies, compareMarkets, getMarket, getMarketHistory, getMarketInsights,
  ],
  dependsOn: ['agrifood'],
  load: loadTrade,
  sources: [{ command: tradeIngestCommand, sample: tradeSampleSource }],
});
