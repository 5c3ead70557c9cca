// The route catalog: every endpoint is declared once, as data, next to its SQL.
// The router, parameter validation, 400 messages, and (later) OpenAPI, the docs and the
// payment table are all built from these declarations; nothing lists endpoints twice.
import type { Database } from '../engine/database.ts';
import type { JsonValue, Row } from '../engine/json.ts';
import type { ApiError, ErrorCode } from './shared/errors.ts';
import { kindParams, resolveInputs, type Kind } from './kinds/kind.ts';
import { envelopePosition, isPagedEnvelopeSchema, type PagePosition } from './kinds/page.ts';

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
  /** The validated JSON request body of a route that declares `requestBody`. */
  body?: Record<string, unknown>;
}

export type ResponseBody = Record<string, JsonValue>;

/**
 * A condition checked by the router right after parameter validation and before the payment check and
 * the handler (a request it refuses is never charged), e.g. the licence gate of reserve-bank series.
 */
export interface RouteGate<P> {
  /** The status and code it answers with, and when: for the docs and OpenAPI. */
  status: number;
  code: ErrorCode;
  description: string;
  /** null to go on; an ApiError (thrown as the answer) otherwise. */
  check(params: P, context: RouteContext): Promise<ApiError | null>;
}

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
  /**
   * Where the answer's page sits in its list (the Link header's next and prev), for a paged list whose
   * body is not the paged envelope (queries/kinds/page.ts); the envelope's own routes need not say it.
   */
  pagePosition?: (body: ResponseBody) => PagePosition | null;
  /** Checked after validation, before payment and the handler (see RouteGate). */
  gate?: RouteGate<P>;
  /** A JSON request body (POST routes), read and validated before the payment check (see RequestBodySpec). */
  requestBody?: RequestBodySpec;
  handle(params: P, context: RouteContext): Promise<ResponseBody>;
}

/**
 * The JSON request body of a POST route. The router requires `Content-Type: application/json` (else 415
 * unsupported_media_type), reads at most `maxBytes` (else 413 payload_too_large, counted while reading),
 * parses it (malformed JSON or a non-object: 400 naming `body`), rejects unknown fields, checks `schema`
 * and then `check` (400 naming the field), all before the payment check: an invalid body is never charged.
 * The handler receives the body as `context.body`; answers of body routes are not cached.
 */
export interface RequestBodySpec {
  /** An object schema; fields it does not list are rejected. */
  schema: JsonSchema;
  description?: string;
  /** Always JSON. */
  contentType?: 'application/json';
  /** Whether a body must be sent (default true). */
  required?: boolean;
  /** The body the docs, the OpenAPI document and the x402 discovery extension show. */
  example?: JsonValue;
  /**
   * Sample bodies: a POST route's sample requests are each of its `examples` paths sent with each of
   * these (default: `[example]`); every one must answer 200 (test/http/catalog-examples.test.ts, the bench).
   */
  examples?: readonly JsonValue[];
  /** Largest body accepted, in bytes (default 65536). */
  maxBytes?: number;
  /** What the schema cannot state (a code list, ...), run after it: an ApiError naming the field, or null. */
  check?(body: Record<string, unknown>): ApiError | null;
}

/** Default body limit of a route with a request body: 64 KiB. */
export const DEFAULT_BODY_MAX_BYTES = 64 * 1024;

/** One sample request of a route: its method, path and query, and for a POST route the JSON body. */
export interface ExampleRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: JsonValue;
}

/** The route's sample requests: each example path, with each sample body when the route takes one. */
export function exampleRequests(route: Route): ExampleRequest[] {
  const spec = route.requestBody;
  if (!spec) return route.examples.map((url) => ({ method: route.method, url }));
  const bodies = spec.examples ?? (spec.example !== undefined ? [spec.example] : []);
  return route.examples.flatMap((url) => bodies.map((body) => ({ method: route.method, url, body })));
}

/**
 * A route declaration whose inputs may be parameter kinds: their params and checks join the route's,
 * and the handler receives their resolved values under the inputs' names. Type the handler's params
 * as `MyParams & Resolved<typeof myInputs>`.
 */
export type RouteDeclaration<P> = Route<P> & {
  /** Parameter kinds (windows, pages, countries, ...), resolved before the handler runs. */
  inputs?: Readonly<Record<string, Kind<unknown>>>;
};

/** Declares a route with typed parameters; the catalog stores it type-erased. */
export function defineRoute<P>(declaration: RouteDeclaration<P>): Route {
  const { inputs, handle, ...route } = declaration;
  if (!inputs) return declaration as unknown as Route;
  const fromKinds = kindParams(inputs);
  return {
    ...route,
    params: { ...fromKinds.params, ...route.params },
    checks: [...fromKinds.checks, ...((route.checks ?? []) as ReadonlyArray<CrossFieldCheck<Record<string, unknown>>>)],
    async handle(params: Record<string, unknown>, context: RouteContext) {
      return handle({ ...params, ...(await resolveInputs(inputs, params, context)) } as P, context);
    },
  } as Route;
}

/** Columns of the route's list output when the list is empty. */
export function declaredListColumns(route: Route, body: ResponseBody): string[] {
  if (route.listColumns) return [...route.listColumns(body)];
  return Object.keys(route.response.properties?.items?.items?.properties ?? {});
}

/** Whether the route answers a paged list (the paged envelope, or a page it positions itself). */
export function isPagedRoute(route: Route): boolean {
  return route.pagePosition !== undefined || isPagedEnvelopeSchema(route.response);
}

/** Where an answer's page sits in its list; null when the route is no paged list. */
export function pagePositionOf(route: Route, body: ResponseBody): PagePosition | null {
  if (route.pagePosition) return route.pagePosition(body);
  return isPagedEnvelopeSchema(route.response) ? envelopePosition(body) : null;
}

/** Path-template parameter names: `/a/{year}` -> ['year']. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
}
