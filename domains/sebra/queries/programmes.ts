// getMostSponsoredProgramme: organisations ("programmes") ranked by the amount paid out.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { money, rank } from '../../../queries/shared/sql.ts';
import { currencyParam, rankedLimit, yearOrWindow, type CurrencyParams } from './params.ts';
import { programmesResponse } from './schemas.ts';
import type { Database } from '../../../engine/database.ts';
import { spanTotalsSql, windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { PROGRAMME_SUMS, WINDOW_SPAN_SQL, spanPositionsSql } from './tables.ts';
import { CURRENCY_SQL, rejectEmptyWindow, sebraBindings, sebraBoundsSql, windowFilters, windowRows } from './window.ts';

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

// Precomputed: the first PRECOMPUTED_RANKS programmes of each currency over every run of whole months
// (sebra_month_spans), ranked by the same totals and order as PROGRAMMES_SQL (exact sums, a total
// order), so a window with such a span and a limit up to PRECOMPUTED_RANKS is one lookup.
export const PRECOMPUTED_RANKS = 100;
/** Spans per statement while precomputing (bounds the intermediate totals: spans x programmes). */
const SPANS_PER_STATEMENT = 24;

const TOP_PROGRAMMES_SQL = `
  INSERT INTO sebra_programme_top
  WITH spans AS (SELECT span_id, lo, hi FROM sebra_programme_span_positions WHERE span_id BETWEEN $first AND $last),
  totals AS (
    SELECT t.span_id, t.programme_id, p.currency, t.payment_count, t.total_amount AS amount
    FROM (${spanTotalsSql(PROGRAMME_SUMS, { from: 'spans', carry: ['span_id'], upto: 'hi', before: 'lo' })}) t
    JOIN sebra_programmes p USING (programme_id)
  ), ranked AS (
    SELECT *, ${rank('amount DESC, payment_count DESC, programme_id', 'span_id, currency')} AS rank FROM totals
    QUALIFY rank <= ${PRECOMPUTED_RANKS}
  )
  SELECT r.span_id, p.programme, r.payment_count, ${money('r.amount')} AS total_amount, r.currency, r.rank
  FROM ranked r JOIN sebra_programmes p USING (programme_id)`;

export async function loadProgrammeTop(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_programme_span_positions AS ${spanPositionsSql(PROGRAMME_SUMS)}`);
  await db.run(`CREATE TABLE sebra_programme_top (
    span_id INTEGER, programme VARCHAR, payment_count BIGINT, total_amount DECIMAL(38,2), currency VARCHAR, rank BIGINT)`);
  const [{ spans }] = await db.all('SELECT count(*) AS spans FROM sebra_month_spans');
  for (let first = 1; first <= Number(spans); first += SPANS_PER_STATEMENT) {
    await db.run(TOP_PROGRAMMES_SQL, { first, last: first + SPANS_PER_STATEMENT - 1 });
  }
  await db.run('CREATE TABLE sebra_programme_top_sorted AS SELECT * FROM sebra_programme_top ORDER BY span_id, currency, rank');
  await db.run('DROP TABLE sebra_programme_top');
  await db.run('ALTER TABLE sebra_programme_top_sorted RENAME TO sebra_programme_top');
  await db.run('DROP TABLE sebra_programme_span_positions');
}

const PRECOMPUTED_SQL = `
  SELECT programme, payment_count, total_amount, currency, rank FROM sebra_programme_top
  WHERE span_id = ${WINDOW_SPAN_SQL} AND ${CURRENCY_SQL} AND rank <= $limit
  ORDER BY currency, rank`;

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
    const { window } = params.window;
    const bindings = { ...sebraBindings(window, params.currency), limit: params.ranked.limit ?? Number.MAX_SAFE_INTEGER };
    rejectEmptyWindow(window);
    // A window of whole months and a limit within the precomputed ranks: the lookup; an empty lookup
    // (another window, or nothing in the asked currency) takes the general statement.
    let items = bindings.limit <= PRECOMPUTED_RANKS ? await db.all(PRECOMPUTED_SQL, bindings) : [];
    if (items.length === 0) items = await windowRows(db, window, PROGRAMMES_SQL, bindings);
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
