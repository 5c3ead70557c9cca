// The page kind: `limit` (per-route default and maximum, or "all when omitted") and, for paged
// lists, `offset`; the paging of a query or of rows in memory; and the paged-list helpers that build
// both the response schema and the envelope {count, limit, offset, total, items} from one declaration.
import type { Database, SqlParams } from '../../engine/database.ts';
import type { Row } from '../../engine/json.ts';
import type { JsonSchema, ParamSpec } from '../catalog.ts';
import { integer, listOf, object } from '../shared/schema.ts';
import { defineKind, type Kind } from './kind.ts';

/** Upper bound for limits the specification leaves open: large enough for any real list. */
export const MAX_OPEN_LIMIT = 100_000;
/** Upper bound of `offset`, so a client cannot ask for absurd row positions. */
export const OFFSET_MAX = 1_000_000_000;

export interface PageOptions {
  /** Default `limit`; null: every row when `limit` is omitted. */
  default: number | null;
  /** Largest `limit` (default MAX_OPEN_LIMIT). */
  maximum?: number;
  /** Whether the route takes `offset` (paged lists). */
  offset?: boolean;
  description?: string;
}

export interface Page {
  /** null: no limit (every row). */
  limit: number | null;
  offset: number;
}

/** The page of a paged list: its limit always has a default. */
export interface ListPage {
  limit: number;
  offset: number;
}

export function limitSpec(options: PageOptions): ParamSpec {
  const maximum = options.maximum ?? MAX_OPEN_LIMIT;
  const description =
    options.description ??
    (options.default === null ? 'Rows to return (all rows when omitted).' : `Page size (default ${options.default}, at most ${maximum}).`);
  return {
    in: ['query'],
    description,
    schema: { type: 'integer', minimum: 1, maximum, ...(options.default === null ? {} : { default: options.default }) },
  };
}

export const offsetSpec: ParamSpec = {
  in: ['query'],
  description: 'Rows to skip before the page starts (default 0).',
  schema: { type: 'integer', minimum: 0, maximum: OFFSET_MAX, default: 0 },
};

/** limit (and offset) -> {limit, offset}. */
export function page(options: PageOptions): Kind<Page> {
  const params: Record<string, ParamSpec> = { limit: limitSpec(options) };
  if (options.offset) params.offset = offsetSpec;
  return defineKind({
    params,
    resolve: (raw) => ({ limit: (raw.limit as number | undefined) ?? options.default, offset: (raw.offset as number | undefined) ?? 0 }),
  });
}

/** The paged lists of the specification (agri-food and trade): limit default 100, max 500, with offset. */
export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 500;
export const pagedList = (options: { default?: number; maximum?: number; description?: string } = {}): Kind<ListPage> =>
  page({ default: PAGE_LIMIT_DEFAULT, maximum: PAGE_LIMIT_MAX, offset: true, ...options }) as Kind<ListPage>;

/** One page of rows with the rows' total before paging: what pagedBody renders. */
export interface PageOfRows<T> extends ListPage {
  total: number;
  rows: T[];
}

/**
 * Runs the count and the page of `sql` (bound with `bindings`). `sql` must end with its ORDER BY (a
 * total ordering, ties broken by a unique key); the bound LIMIT/OFFSET is appended here. An offset at
 * or beyond the total gives an empty page.
 */
export async function paginate(db: Database, sql: string, bindings: SqlParams, page: ListPage): Promise<PageOfRows<Row>> {
  const [countRow] = await db.all(`SELECT count(*)::INTEGER AS total FROM (${sql}) AS counted`, bindings);
  const total = Number(countRow.total);
  const rows =
    page.offset >= total ? [] : await db.all(`${sql}\nLIMIT $page_limit OFFSET $page_offset`, { ...bindings, page_limit: page.limit, page_offset: page.offset });
  return { rows, limit: page.limit, offset: page.offset, total };
}

/** The page of rows already in memory (in their final order). */
export function pageOfRows<T>(rows: readonly T[], page: ListPage): PageOfRows<T> {
  return { rows: rows.slice(page.offset, page.offset + page.limit), limit: page.limit, offset: page.offset, total: rows.length };
}

/** JSON Schema of the pagination fields. */
export const pageFieldSchemas: Record<'limit' | 'offset' | 'total', JsonSchema> = {
  limit: { type: 'integer', minimum: 1 },
  offset: { type: 'integer', minimum: 0 },
  total: { type: 'integer', minimum: 0 },
};

/** Schema of a paged body: endpoint, extra fields, filters, count, limit, offset, total, items. */
export function pagedBodySchema(endpoint: string, filters: Record<string, JsonSchema>, item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return object({ endpoint: { const: endpoint }, ...extra, filters: object(filters), count: integer, ...pageFieldSchemas, items: listOf(item) });
}

/** The envelope of one page: count is the page's size, total the rows before paging. */
export function pagedBody<T>(page: PageOfRows<T>): { count: number; limit: number; offset: number; total: number; items: T[] } {
  return { count: page.rows.length, limit: page.limit, offset: page.offset, total: page.total, items: page.rows };
}

/** Where one page sits in its list: what a client needs to ask for the page before or after it. */
export interface PagePosition {
  limit: number;
  offset: number;
  /** The rows of the list before paging. */
  total: number;
}

/** Whether a response schema is the paged envelope (top-level limit, offset, total and items). */
export function isPagedEnvelopeSchema(schema: JsonSchema): boolean {
  const properties = schema.properties ?? {};
  return ['limit', 'offset', 'total', 'items'].every((name) => Object.hasOwn(properties, name));
}

/** The position of a paged envelope's page (pagedBody's limit, offset and total); null for any other body. */
export function envelopePosition(body: unknown): PagePosition | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { limit, offset, total, items } = body as Record<string, unknown>;
  if (!Array.isArray(items) || ![limit, offset, total].every((value) => Number.isInteger(value))) return null;
  return { limit: limit as number, offset: offset as number, total: total as number };
}
