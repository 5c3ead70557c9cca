// The route catalog: every endpoint is declared once, as data, next to its SQL.
// The router, parameter validation, 400 messages, and (later) OpenAPI, the docs and the
// payment table are all built from these declarations; nothing lists endpoints twice.
import type { Database } from '../engine/database.ts';
import type { JsonValue, Row } from '../engine/json.ts';
import type { ApiError } from './shared/errors.ts';

export type ParamLocation = 'query' | 'path';

/** The subset of JSON Schema the catalog uses for parameters and responses. */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null' | Array<'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null'>;
  description?: string;
  enum?: ReadonlyArray<string | number>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: JsonValue;
  examples?: JsonValue[];
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  const?: JsonValue;
}

export interface ParamSpec {
  /** Where the parameter may appear. A parameter in a path template is required in that form. */
  in: readonly ParamLocation[];
  schema: JsonSchema;
  description: string;
  /** Required in the query form. */
  required?: boolean;
  /** Query keys given without a value that set this parameter to the key (`?days` -> period=days). */
  bareFlags?: readonly string[];
  /** Case-fold the raw value before validation (`eur` -> `EUR`). */
  normalize?: 'upper' | 'lower';
  /**
   * A family of query keys instead of one: every key `<prefix><key>` (`dim.siec=TOTAL`) is accepted, its
   * `<key>` checked against keyPattern and its value against `schema`; the handler gets them all as one
   * object {key: value} (keys sorted) under this parameter's name, or nothing when none is given.
   */
  family?: ParamFamily;
}

export interface ParamFamily {
  /** The key prefix, e.g. `dim.`. */
  prefix: string;
  /** Regular expression (anchored) every key after the prefix must match. */
  keyPattern: string;
  /** Most keys of the family in one request. */
  maxKeys: number;
}

/** A named rule over several parameters (year xor from/to, from <= to, ...). */
export interface CrossFieldCheck<P> {
  name: string;
  description: string;
  check(params: P): ApiError | null;
}

export interface RouteContext {
  db: Database;
  /** Today's date (ISO) from the injectable clock, for windows whose `to` defaults to today. */
  today: string;
}

export type ResponseBody = Record<string, JsonValue>;

export interface Route<P = Record<string, unknown>> {
  /** Operation name, e.g. getPeriodsWithMostPayments. */
  id: string;
  method: 'GET' | 'POST';
  /** Domain tag (sebra, ptp, ...). */
  tag: string;
  /** Every path form, OpenAPI style: `/api/sebra/getTaxonomyForYear/{year}`. */
  paths: readonly string[];
  summary: string;
  description: string;
  paid: boolean;
  params: Record<string, ParamSpec>;
  checks?: ReadonlyArray<CrossFieldCheck<P>>;
  response: JsonSchema;
  /**
   * Sample requests (path and query), at least one per path form. Each must answer 200 on the
   * sample data (test/http/catalog-examples.test.ts checks it against the response schema); the
   * docs show them as curl examples and the benchmark uses them as representative parameters.
   */
  examples: readonly string[];
  /** Rows for CSV and Arrow output; absent when the response is not a list. */
  listRows?: (body: ResponseBody) => Row[];
  /** Columns of an empty CSV/Arrow table; default: the properties of the response's `items`. */
  listColumns?: (body: ResponseBody) => readonly string[];
  handle(params: P, context: RouteContext): Promise<ResponseBody>;
}

/** Declares a route with typed parameters; the catalog stores it type-erased. */
export function defineRoute<P>(route: Route<P>): Route {
  return route as unknown as Route;
}

/** Columns of the route's list output when the list is empty. */
export function declaredListColumns(route: Route, body: ResponseBody): string[] {
  if (route.listColumns) return [...route.listColumns(body)];
  return Object.keys(route.response.properties?.items?.items?.properties ?? {});
}

/** Path-template parameter names: `/a/{year}` -> ['year']. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}
