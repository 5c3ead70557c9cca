// Pagination of the agri-food and trade lists: `limit` (default 100, max 500) and `offset` (>= 0),
// the paging SQL that goes with them, and the pagination fields every paged body carries.
import type { Database, SqlParams } from '../../engine/database.ts';
import type { Row } from '../../engine/json.ts';
import type { JsonSchema, ParamSpec } from '../catalog.ts';

export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 500;
/** Upper bound of `offset`, so a client cannot ask for absurd row positions. */
export const OFFSET_MAX = 1_000_000_000;

export function pageLimitParam(options: { default?: number; maximum?: number; description?: string } = {}): ParamSpec {
  const def = options.default ?? PAGE_LIMIT_DEFAULT;
  const max = options.maximum ?? PAGE_LIMIT_MAX;
  return {
    in: ['query'],
    description: options.description ?? `Page size (default ${def}, at most ${max}).`,
    schema: { type: 'integer', minimum: 1, maximum: max, default: def },
  };
}

/** `limit` with the agri-food/trade list defaults (100, max 500). */
export const limitParam: ParamSpec = pageLimitParam();

export const offsetParam: ParamSpec = {
  in: ['query'],
  description: 'Rows to skip before the page starts (default 0).',
  schema: { type: 'integer', minimum: 0, maximum: OFFSET_MAX, default: 0 },
};

/** `limit` and `offset`, ready to spread into a route's `params`. */
export const paginationParams: Record<'limit' | 'offset', ParamSpec> = { limit: limitParam, offset: offsetParam };

export interface PageParams {
  limit?: number;
  offset?: number;
}

export interface Page {
  limit: number;
  offset: number;
}

/** The page a request asks for (defaults filled in when the validator did not). */
export function pageOf(params: PageParams, defaultLimit = PAGE_LIMIT_DEFAULT): Page {
  return { limit: params.limit ?? defaultLimit, offset: params.offset ?? 0 };
}

/** Paging clause with bound parameters: append to a query whose ORDER BY is a total ordering. */
export const PAGE_SQL = 'LIMIT $page_limit OFFSET $page_offset';

/** Bindings for PAGE_SQL. */
export function pageBindings(page: Page): { page_limit: number; page_offset: number } {
  return { page_limit: page.limit, page_offset: page.offset };
}

/** Pagination fields of a paged response body. */
export interface PageFields {
  limit: number;
  offset: number;
  total: number;
}

/**
 * Runs the count and the page of `sql` (bound with `bindings`) and returns the rows with the
 * pagination fields. `sql` must end with its ORDER BY (a total ordering, ties broken by a unique
 * key); the LIMIT/OFFSET is appended here. An offset at or beyond the total gives an empty page.
 */
export async function paginate(db: Database, sql: string, bindings: SqlParams, page: Page): Promise<{ rows: Row[] } & PageFields> {
  const [countRow] = await db.all(`SELECT count(*)::INTEGER AS total FROM (${sql}) AS counted`, bindings);
  const total = Number(countRow.total);
  const rows = page.offset >= total ? [] : await db.all(`${sql}\n${PAGE_SQL}`, { ...bindings, ...pageBindings(page) });
  return { rows, limit: page.limit, offset: page.offset, total };
}

/** JSON Schema of the pagination fields, to spread into a body's properties. */
export const pageFieldSchemas: Record<keyof PageFields, JsonSchema> = {
  limit: { type: 'integer', minimum: 1 },
  offset: { type: 'integer', minimum: 0 },
  total: { type: 'integer', minimum: 0 },
};
