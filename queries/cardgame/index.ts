// The cardgame domain: bilingual (English and Bulgarian) card lookups.
import type { Route } from '../catalog.ts';
import { getCard, getCardsByClass, getTranslatedCardInBG } from './cards.ts';

export { loadCardgame } from './tables.ts';
export const cardgameRoutes: readonly Route[] = [getCard, getTranslatedCardInBG, getCardsByClass];
