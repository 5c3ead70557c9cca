// The page kind: `limit` (per-route default and maximum, or "all when omitted") and, for paged
// lists, `offset`; and the paged-list helpers that build both the response schema and the envelope
// {count, limit, offset, total, items} from one declaration.
import type { JsonSchema, ParamSpec } from '../catalog.ts';
import { MAX_OPEN_LIMIT } from '../shared/params.ts';
import { integer, listOf, object } from '../shared/schema.ts';
import { defineKind, type Kind } from './kind.ts';

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
export const pagedList = (options: Partial<PageOptions> = {}): Kind<Page> =>
  page({ default: PAGE_LIMIT_DEFAULT, maximum: PAGE_LIMIT_MAX, offset: true, ...options });

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
export function pagedBody<T>(page: { limit: number; offset: number; total: number; rows: T[] }): { count: number; limit: number; offset: number; total: number; items: T[] } {
  return { count: page.rows.length, limit: page.limit, offset: page.offset, total: page.total, items: page.rows };
}
