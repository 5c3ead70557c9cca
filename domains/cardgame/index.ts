// Card game: bilingual (English and Bulgarian) collectible card lookups.
import { defineDomain } from '../contract.ts';
import { cardgameIngestCommand } from './ingest/command.ts';
import { cardgameSampleSource } from './ingest/sampleSource.ts';
import { getCard, getCardsByClass, getTranslatedCardInBG } from './queries/cards.ts';
import { loadCardgame } from './queries/tables.ts';

export const cardgameDomain = defineDomain({
  name: 'cardgame',
  tags: [{ tag: 'cardgame', title: 'Card game', description: 'Bilingual (English and Bulgarian) collectible card data.' }],
  routes: [getCard, getTranslatedCardInBG, getCardsByClass],
  load: loadCardgame,
  sources: [{ command: cardgameIngestCommand, sample: cardgameSampleSource }],
});
