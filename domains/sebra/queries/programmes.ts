// getMostSponsoredProgramme: organisations ("programmes") ranked by the amount paid out.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { money, rank } from '../../../queries/shared/sql.ts';
import { currencyParam, rankedLimit, yearOrWindow, type CurrencyParams } from './params.ts';
import { programmesResponse } from './schemas.ts';
import { windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { PROGRAMME_SUMS } from './tables.ts';
import { CURRENCY_SQL, sebraBindings, sebraBoundsSql, windowFilters, windowRows } from './window.ts';

// Every programme's window totals are two lookups in PROGRAMME_SUMS (O(programmes), whatever the
// window). Ranked per currency by total amount, then payment count, then name (a total order):
// programme ids follow the names within a currency, so the ranking sorts ids and only the ranked
// rows look their names up.
const PROGRAMMES_SQL = `
  WITH bounds AS (${sebraBoundsSql(PROGRAMME_SUMS)}),
  totals AS (
    SELECT t.programme_id, p.currency, t.payment_count, t.total_amount AS amount
    FROM (${windowTotalsSql(PROGRAMME_SUMS, 'bounds')}) t JOIN sebra_programmes p USING (programme_id)
    WHERE ${CURRENCY_SQL}
  ), ranked AS (
    SELECT *, ${rank('amount DESC, payment_count DESC, programme_id', 'currency')} AS rank FROM totals
    QUALIFY rank <= $limit
  )
  SELECT p.programme, r.payment_count, ${money('r.amount')} AS total_amount, r.currency, r.rank
  FROM ranked r JOIN sebra_programmes p USING (programme_id)
  ORDER BY r.currency, r.rank`;

const programmesInputs = { window: yearOrWindow, ranked: rankedLimit };

export const getMostSponsoredProgramme = defineRoute<CurrencyParams & Resolved<typeof programmesInputs>>({
  id: 'getMostSponsoredProgramme',
  method: 'GET',
  tag: 'sebra',
  paths: ['/api/sebra/getMostSponsoredProgramme', '/api/sebra/getMostSponsoredProgramme/{year}'],
  examples: [
    '/api/sebra/getMostSponsoredProgramme?from=01-2026&to=10-2026&limit=10',
    '/api/sebra/getMostSponsoredProgramme/2025?currency=BGN&limit=5',
  ],
  summary: 'Organisations (programmes) that received the most SEBRA payments',
  description:
    'Totals every organisation\'s payments in the window (a year, or from/to, or the full history) and ranks them per ' +
    'currency by total amount, then payment count.',
  paid: true,
  params: { currency: currencyParam },
  inputs: programmesInputs,
  response: programmesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const items = await windowRows(db, params.window.window, PROGRAMMES_SQL, {
      ...sebraBindings(params.window.window, params.currency),
      limit: params.ranked.limit ?? Number.MAX_SAFE_INTEGER,
    });
    const { currency, year, from, to } = windowFilters(params.window, params.currency);
    return {
      endpoint: 'getMostSponsoredProgramme',
      ordered_by: 'total_amount',
      filters: { year, from, to, currency, limit: params.ranked.limit },
      count: items.length,
      items,
    };
  },
});
