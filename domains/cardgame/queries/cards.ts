// The card lookups: by English name and/or dbf id, the Bulgarian translation of an English name,
// and the cards of a class. Every list is ordered by dbf_id (the set's own card id).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type CrossFieldCheck, type ParamSpec } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { page, type Resolved } from '../../../queries/kinds/index.ts';
import { knownClassNames, resolveCardClass } from './classes.ts';
import { byClassResponse, getCardResponse, PAIR_COLUMNS, translatedResponse } from './schemas.ts';
import { asciiNameKey, heldCards } from './heldCards.ts';
import { cardFromRow, PAIR_BG_PREFIX, PAIR_SELECT } from './tables.ts';

export const CLASS_LIMIT_DEFAULT = 200;
export const CLASS_LIMIT_MAX = 2000;

const nameSpec = (description: string, where: ParamSpec['in']): ParamSpec => ({
  in: where,
  description,
  schema: { type: 'string', minLength: 1, maxLength: 200, examples: ['Tidecaller of the Deep'] },
});

/** {en, bg} pairs from rows of cardgame_pairs or cardgame_class_pairs, by dbf_id (the lists' order). */
function pairsOf(rows: Row[]): Row[] {
  // Ordered here: the tables are stored in this order, but a scan's order is not a promise of SQL.
  rows.sort((a, b) => Number(a.dbf_id) - Number(b.dbf_id));
  return rows.map((row) => ({ en: cardFromRow(row)!, bg: cardFromRow(row, PAIR_BG_PREFIX) }));
}

/** The pairs whose English card has this name (any case) and/or this dbf id (null: any): held, or one keyed read. */
async function pairsByNameOrId(db: Database, name: string | null, dbfId: number | null): Promise<Row[]> {
  const held = await heldCards(db);
  const key = name === null ? null : asciiNameKey(name);
  if (held && (key !== null || (name === null && dbfId !== null))) {
    const candidates = key !== null ? held.byNameKey.get(key) ?? [] : held.byDbfId.get(dbfId!) ?? [];
    return pairsOf(candidates.filter((row) => dbfId === null || Number(row.dbf_id) === dbfId));
  }
  return pairsOf(await db.all(
    `SELECT ${PAIR_SELECT} FROM cardgame_pairs
      WHERE ($name IS NULL OR name_key = lower($name)) AND ($dbf_id IS NULL OR dbf_id = CAST($dbf_id AS INTEGER))`,
    { name, dbf_id: dbfId === null ? null : String(dbfId) },
  ));
}

/**
 * A class's page: the position and total columns of cardgame_class_pairs that count the cards the
 * collectible filter keeps (null: every card of the class).
 */
const CLASS_LIST_COLUMNS = {
  all: { position: 'position', total: 'total' },
  collectible: { position: 'collectible_position', total: 'collectible_total' },
  nonCollectible: { position: 'noncollectible_position', total: 'noncollectible_total' },
} as const;

/** One page of a class's pairs by dbf_id and the count before paging: one range read of the page's rows. */
async function classPage(db: Database, cardClass: string, collectible: boolean | undefined, page: { limit: number; offset: number }): Promise<{ pairs: Row[]; total: number }> {
  const list = CLASS_LIST_COLUMNS[collectible === undefined ? 'all' : collectible ? 'collectible' : 'nonCollectible'];
  const held = await heldCards(db);
  if (held) {
    const listed = (held.classPairs.get(cardClass) ?? []).filter((row) => row[list.position] !== null);
    const rows = listed.filter((row) => Number(row[list.position]) > page.offset && Number(row[list.position]) <= page.offset + page.limit);
    return { pairs: pairsOf(rows), total: listed.length };
  }
  const rows = await db.all(
    `SELECT ${list.total} AS list_total, ${PAIR_SELECT} FROM cardgame_class_pairs
      WHERE class = $class AND ${list.position} > $offset AND ${list.position} <= $offset + $limit`,
    { class: cardClass, offset: page.offset, limit: page.limit },
  );
  // An empty page (an offset at or past the end) says nothing of the count: asked separately.
  const total = rows.length > 0
    ? Number(rows[0]!.list_total)
    : Number((await db.all(`SELECT count(*) AS total FROM cardgame_class_pairs WHERE class = $class AND ${list.position} IS NOT NULL`, { class: cardClass }))[0]!.total);
  return { pairs: pairsOf(rows), total };
}

/** A name without surrounding spaces; blank is a 400. */
function requiredName(value: string, param: string): string {
  const name = value.trim();
  if (name === '') throw invalidParameter(param, `${param} must not be blank`);
  return name;
}

/** CSV/Arrow rows of {en, bg} pairs: the English card with the Bulgarian name and text. */
function pairRows(items: Row[]): Row[] {
  return items.map((item) => {
    const en = item.en as Row;
    const bg = item.bg as Row | null;
    return Object.fromEntries(PAIR_COLUMNS.map((column) => [
      column,
      column === 'bg_name' ? (bg?.name ?? null) : column === 'bg_text' ? (bg?.text ?? null) : en[column]!,
    ]));
  });
}

interface GetCardParams { name?: string; dbf_id?: number }

const nameOrDbfId: CrossFieldCheck<GetCardParams> = {
  name: 'nameOrDbfId',
  description: 'name or dbf_id (or both) is required',
  check: ({ name, dbf_id }) => (name === undefined && dbf_id === undefined ? invalidParameter('name', 'give name or dbf_id (or both)') : null),
};

export const getCard = defineRoute<GetCardParams>({
  id: 'getCard',
  method: 'GET',
  tag: 'cardgame',
  paths: ['/api/cardgame/getCard'],
  examples: [
    '/api/cardgame/getCard?name=tidecaller%20of%20the%20deep',
    '/api/cardgame/getCard?dbf_id=90034',
    '/api/cardgame/getCard?name=Roaring%20Totem&dbf_id=90033',
  ],
  summary: 'A card by English name and/or dbf id, with its Bulgarian translation',
  description:
    'Finds English cards by exact name (any case) and/or dbf_id; with both, a card must match both. Each item pairs the ' +
    'English card with the Bulgarian one of the same dbf_id (null when it is not translated).',
  paid: true,
  params: {
    name: nameSpec('English card name, exact, any case.', ['query']),
    dbf_id: { in: ['query'], description: 'The card\'s dbf id.', schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647, examples: [90034] } },
  },
  checks: [nameOrDbfId],
  response: getCardResponse,
  listRows: (body) => pairRows(body.items as Row[]),
  listColumns: () => PAIR_COLUMNS,
  async handle(params, { db }) {
    const name = params.name === undefined ? null : requiredName(params.name, 'name');
    const items = await pairsByNameOrId(db, name, params.dbf_id ?? null);
    const query = { name, dbf_id: params.dbf_id ?? null };
    if (items.length === 0) throw notFound(`no English card matches ${JSON.stringify(query)}`);
    return { endpoint: 'getCard', query, count: items.length, items };
  },
});

export const getTranslatedCardInBG = defineRoute<{ name: string }>({
  id: 'getTranslatedCardInBG',
  method: 'GET',
  tag: 'cardgame',
  paths: ['/api/cardgame/getTranslatedCardInBG', '/api/cardgame/getTranslatedCardInBG/{name}'],
  examples: ['/api/cardgame/getTranslatedCardInBG?name=Tidecaller%20of%20the%20Deep', '/api/cardgame/getTranslatedCardInBG/roaring%20echo'],
  summary: 'The Bulgarian card(s) for an English card name',
  description:
    'Matches the English name exactly (any case). When several English cards share the name (reprints), every one of ' +
    'them that has a Bulgarian card gives an item; matched_en is the first English match by dbf_id.',
  paid: true,
  params: { name: { ...nameSpec('English card name, exact, any case.', ['query', 'path']), required: true } },
  response: translatedResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const name = requiredName(params.name, 'name');
    const pairs = await pairsByNameOrId(db, name, null);
    if (pairs.length === 0) throw notFound(`no English card is named "${name}"`);
    const first = pairs[0]!.en as Row;
    const items = pairs.flatMap((pair) => (pair.bg === null ? [] : [pair.bg as Row]));
    return {
      endpoint: 'getTranslatedCardInBG',
      query: { name },
      matched_en: { id: first.id!, dbf_id: first.dbf_id!, name: first.name! },
      count: items.length,
      items,
    };
  },
});

const byClassInputs = {
  cards: page({
    default: CLASS_LIMIT_DEFAULT,
    maximum: CLASS_LIMIT_MAX,
    offset: true,
    description: `Cards to return (default ${CLASS_LIMIT_DEFAULT}, at most ${CLASS_LIMIT_MAX}); with offset, a class of any size is listed whole page by page.`,
  }),
};

type ByClassParams = { class?: string; card_class?: string; collectible?: boolean } & Resolved<typeof byClassInputs>;

// The query form names the parameter `class`, the path form `card_class` (as the specification
// does): exactly one of them is required.
const classGiven: CrossFieldCheck<ByClassParams> = {
  name: 'classRequired',
  description: 'class (or the path\'s card_class) is required, and only one of them',
  check: (params) => {
    if (params.class === undefined && params.card_class === undefined) return invalidParameter('class', 'class is required');
    if (params.class !== undefined && params.card_class !== undefined) {
      return invalidParameter('class', 'the class is given in the path; do not repeat it as ?class=');
    }
    return null;
  },
};

export const getCardsByClass = defineRoute<ByClassParams>({
  id: 'getCardsByClass',
  method: 'GET',
  tag: 'cardgame',
  paths: ['/api/cardgame/getCardsByClass', '/api/cardgame/getCardsByClass/{card_class}'],
  examples: [
    '/api/cardgame/getCardsByClass?class=Shaman',
    `/api/cardgame/getCardsByClass?class=${encodeURIComponent('Шаман')}&collectible=false`,
    '/api/cardgame/getCardsByClass/SHAMAN?collectible=true&limit=3',
    `/api/cardgame/getCardsByClass/${encodeURIComponent('Ловец')}`,
  ],
  summary: 'The cards of a class, English with Bulgarian',
  description:
    'Cards whose class is the given one (SHAMAN, Shaman, Шаман, Demon Hunter all work); multi-class cards count in each ' +
    'of their classes. Ordered by dbf_id; bg is null for a card without a Bulgarian translation. Paged by limit and offset ' +
    '(offset counts cards in dbf_id order; total is the count before paging, so the pages of offset 0, limit, 2 x limit, ... ' +
    'list the class whole; an offset at or past total gives an empty page).',
  paid: true,
  params: {
    class: { in: ['query'], description: 'Class: English enum or name in any case, or the Bulgarian word.', schema: { type: 'string', minLength: 1, maxLength: 40, examples: ['Shaman'] } },
    card_class: { in: ['path'], description: 'Class, as for the query parameter class.', schema: { type: 'string', minLength: 1, maxLength: 40, examples: ['SHAMAN'] } },
    collectible: { in: ['query'], description: 'Only collectible (true) or only non-collectible (false) cards.', schema: { type: 'boolean' } },
  },
  inputs: byClassInputs,
  checks: [classGiven],
  response: byClassResponse,
  listRows: (body) => pairRows(body.items as Row[]),
  listColumns: () => PAIR_COLUMNS,
  // Its page is in `query` (the specification's shape), not the paged envelope.
  pagePosition: (body) => {
    const query = body.query as { limit: number; offset: number };
    return { limit: query.limit, offset: query.offset, total: body.total as number };
  },
  async handle(params, { db }) {
    const param = params.class === undefined ? 'card_class' : 'class';
    const given = (params.class ?? params.card_class)!.trim();
    const present = (await heldCards(db))?.classes ?? (await db.all('SELECT class FROM cardgame_classes ORDER BY class')).map((row) => String(row.class));
    const cardClass = resolveCardClass(given, present);
    if (!cardClass) throw invalidParameter(param, `unknown class "${given}" (known: ${knownClassNames(present).join(', ')})`);
    const limit = params.cards.limit ?? CLASS_LIMIT_DEFAULT;
    const { offset } = params.cards;
    const { pairs: items, total } = await classPage(db, cardClass, params.collectible, { limit, offset });
    return {
      endpoint: 'getCardsByClass',
      query: { class: given, card_class: cardClass, collectible: params.collectible ?? null, limit, offset },
      total,
      count: items.length,
      items,
    };
  },
});
