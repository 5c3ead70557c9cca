// The transport-independent answer to a catalog request, shared by the HTTP pipeline, the query CLI
// (bin/query.ts) and the MCP server (bin/mcpServer.ts): match a path to a route and its path form,
// validate the query and path parameters and the JSON body, run the route's gate, answer from the
// cache or the handler, encode the format. One code path, so the three give the same validation
// and byte-identical answers.
import type { Database } from '../engine/database.ts';
import { DEFAULT_BODY_MAX_BYTES, pathParamNames, type ResponseBody, type Route } from '../queries/catalog.ts';
import { ApiError, invalidParameter } from '../queries/shared/errors.ts';
import { buildBodyValidator, type BodyValidator } from './body.ts';
import { ResponseCache, toCached, type CachedAnswer } from './cache.ts';
import { toErrorBody, type ErrorBody } from './errors.ts';
import { chooseFormat, encodeBody, type EncodedBody, type OutputFormat } from './formats.ts';
import { parseQuery } from './query.ts';
import { buildValidator, type ParamValidator, type RawQuery } from './validate.ts';

/** One path form of one route, with its validators. */
export interface Endpoint {
  route: Route;
  /** The path form, OpenAPI style (`/api/x/{year}`). */
  path: string;
  validateParams: ParamValidator;
  validateBody: BodyValidator | null;
  /** Matches a concrete path (case-insensitive, optional trailing slash). */
  pattern: RegExp;
  pathParamNames: readonly string[];
}

/** Where a concrete path lands in the catalog, for a method: found once per request (HTTP: http/pipeline/matchRoute.ts). */
export interface PathMatch {
  /** The first path form (catalog order) whose route takes the method (HEAD as GET); else the first whose pattern matches. */
  endpoint: Endpoint;
  /** Whether `endpoint`'s route takes the method; false: the path exists, the method is not allowed on it. */
  methodTaken: boolean;
  /** `endpoint`'s decoded path parameters. */
  pathParams: Record<string, string>;
  /** The methods of every route whose path form matches, in catalog order, each once (`GET`, `POST`). */
  routeMethods: string[];
}

export interface PrepareInput {
  query: RawQuery;
  /** Decoded path parameters. */
  pathParams: Record<string, string>;
  /** The parsed JSON body; called only for a route that declares one (it may throw the 4xx of a bad body). */
  readBody?: () => Promise<unknown>;
  /** The output format, chosen after the body is read (default: the `format` query value, else JSON). */
  format?: (route: Route) => OutputFormat;
}

/** A validated request, ready to be answered (the HTTP payment check runs between prepare and answer). */
export interface Prepared {
  endpoint: Endpoint;
  params: Record<string, unknown>;
  body?: Record<string, unknown>;
  format: OutputFormat;
}

/** A request without a transport: a method, a path with its query, and for a POST route its JSON body. */
export interface DispatchRequest {
  method: 'GET' | 'POST';
  /** `/api/sebra/getTaxonomyForYear/2024?currency=EUR` */
  target: string;
  /** The parsed JSON body (undefined: none was sent). */
  body?: unknown;
}

export interface DispatchAnswer {
  route: Route;
  prepared: Prepared;
  answer: ResponseBody;
  encoded: EncodedBody;
}

export interface DispatcherOptions {
  db: Database;
  routes: readonly Route[];
  /** Today's date (ISO) in the data's time zone. */
  today: () => string;
  cache?: ResponseCache;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/api/x/{year}` -> `/api/x/:year` (the x402 route table's and the discovery document's form). */
export function koaPath(path: string): string {
  return path.replace(/\{([^{}]+)\}/g, ':$1');
}

/** A path form as a pattern matching concrete paths (case-insensitive, optional trailing slash), as the HTTP API always has. */
export function pathPattern(template: string): RegExp {
  const source = template.split(/\{[^{}]+\}/).map(escapeRegExp).join('([^/]+)');
  return new RegExp(`^${source}/?$`, 'i');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The JSON error body of a failure, as the HTTP layer renders it. */
export const errorAnswer: (error: unknown) => ErrorBody = toErrorBody;

/** A body given as a value (CLI, MCP): the route's size limit on its JSON text, then the same validation as HTTP. */
export function checkBodySize(route: Route, body: unknown): void {
  const maxBytes = route.requestBody?.maxBytes ?? DEFAULT_BODY_MAX_BYTES;
  if (body !== undefined && Buffer.byteLength(JSON.stringify(body) ?? '') > maxBytes) {
    throw new ApiError(413, 'payload_too_large', `the body is larger than ${maxBytes} bytes`, 'body');
  }
}

/**
 * A route's endpoints, one per path form, built once per route object: the validators are compiled
 * by ajv (on first use), which keeps every schema it compiled, so building them per Dispatcher (the
 * CLI makes one per request) took about 100 ms each time and grew ajv's memory.
 */
const ENDPOINTS = new WeakMap<Route, readonly Endpoint[]>();
function endpointsOf(route: Route): readonly Endpoint[] {
  let endpoints = ENDPOINTS.get(route);
  if (!endpoints) {
    endpoints = route.paths.map((path) => ({
      route,
      path,
      validateParams: buildValidator(route, path),
      validateBody: route.requestBody ? buildBodyValidator(route.requestBody) : null,
      pattern: pathPattern(path),
      pathParamNames: pathParamNames(path),
    }));
    ENDPOINTS.set(route, endpoints);
  }
  return endpoints;
}

/**
 * Compiles the parameter and body validators of every route (they compile on first use otherwise: ParamValidator, BodyValidator),
 * one route per turn of the event loop, so that a request arriving meanwhile waits for one route's
 * compiles at most, a few milliseconds, not all of them (half a second). The server runs it once listening.
 */
export async function warmValidators(routes: readonly Route[]): Promise<void> {
  for (const route of routes) {
    for (const endpoint of endpointsOf(route)) {
      endpoint.validateParams.compile();
      endpoint.validateBody?.compile();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export class Dispatcher {
  readonly endpoints: readonly Endpoint[];
  private readonly cache: ResponseCache;

  constructor(private readonly options: DispatcherOptions) {
    this.cache = options.cache ?? new ResponseCache();
    this.endpoints = options.routes.flatMap(endpointsOf);
  }

  get db(): Database {
    return this.options.db;
  }

  today(): string {
    return this.options.today();
  }

  /** Where a concrete path lands for a method (one pass over the path forms); null: no path form matches it. */
  findPath(method: string, pathname: string): PathMatch | null {
    const routeMethods = new Set<string>();
    let first: { endpoint: Endpoint; found: RegExpExecArray } | null = null;
    let taking: { endpoint: Endpoint; found: RegExpExecArray } | null = null;
    for (const endpoint of this.endpoints) {
      const found = endpoint.pattern.exec(pathname);
      if (!found) continue;
      routeMethods.add(endpoint.route.method);
      first ??= { endpoint, found };
      if (!taking && (endpoint.route.method === method || (method === 'HEAD' && endpoint.route.method === 'GET'))) taking = { endpoint, found };
    }
    const chosen = taking ?? first;
    if (!chosen) return null;
    const pathParams: Record<string, string> = {};
    chosen.endpoint.pathParamNames.forEach((name, index) => (pathParams[name] = safeDecode(chosen.found[index + 1]!)));
    return { endpoint: chosen.endpoint, methodTaken: taking !== null, pathParams, routeMethods: [...routeMethods] };
  }

  /** The endpoint a concrete path belongs to (first in catalog order) and its decoded path parameters; 404 or 405 otherwise. */
  match(method: string, pathname: string): { endpoint: Endpoint; pathParams: Record<string, string> } {
    const found = this.findPath(method, pathname);
    if (found?.methodTaken) return { endpoint: found.endpoint, pathParams: found.pathParams };
    if (found) {
      throw new ApiError(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; allowed: ${found.routeMethods.join(', ')}`);
    }
    throw new ApiError(404, 'not_found', `no such path: ${pathname}`);
  }

  /** Validation in the HTTP order: parameters, body, format, then the gate (a refused request is never charged). */
  async prepare(endpoint: Endpoint, input: PrepareInput): Promise<Prepared> {
    const { route } = endpoint;
    const params = endpoint.validateParams(input.query, input.pathParams);
    let body: Record<string, unknown> | undefined;
    if (endpoint.validateBody) {
      const raw = input.readBody ? await input.readBody() : undefined;
      if (raw === undefined) throw invalidParameter('body', 'the body is empty; send a JSON object');
      body = endpoint.validateBody(raw);
    }
    const format = input.format ? input.format(route) : chooseFormat(route, input.query.format);
    const refusal = route.gate ? await route.gate.check(params, { db: this.options.db, today: this.options.today() }) : null;
    if (refusal) throw refusal;
    return { endpoint, params, body, format };
  }

  /** The handler's answer, computed (the cache keeps encoded bytes only: see answerEncoded). */
  async answer(prepared: Pick<Prepared, 'params' | 'body'> & { endpoint: Pick<Endpoint, 'route'> }): Promise<ResponseBody> {
    const { route } = prepared.endpoint;
    const { db } = this.options;
    const today = this.options.today();
    if (prepared.body) return route.handle(prepared.params, { db, today, body: prepared.body });
    return route.handle(prepared.params, { db, today });
  }

  /**
   * The encoded answer in the prepared format: answers to parameters alone come from the byte-bounded
   * answer cache (keyed by route, parameters, today and format), answers to a body are computed each time.
   * `cacheHit` hears whether the cache answered.
   */
  async answerEncoded(
    prepared: Pick<Prepared, 'params' | 'body' | 'format'> & { endpoint: Pick<Endpoint, 'route'> },
    how: {
      /** Runs the computation (HTTP: in a slot of the bound on answers computed at once; cache hits skip it). */
      computing?: <T>(compute: () => Promise<T>) => Promise<T>;
      /** Hears whether the cache answered. */
      cacheHit?: (hit: boolean) => void;
    } = {},
  ): Promise<CachedAnswer> {
    const computing = how.computing ?? ((compute) => compute());
    const { route } = prepared.endpoint;
    const encode = () => computing(async () => toCached(await encodeBody(route, await this.answer(prepared), prepared.format)));
    if (prepared.body) return encode();
    return this.cache.getOrCompute(ResponseCache.key(route.id, prepared.params, this.options.today(), prepared.format), encode, how.cacheHit);
  }

  /**
   * The whole request without a transport (no payment): match, validate, answer, encode. Throws the
   * ApiError an HTTP client would get as its JSON error (errorAnswer renders it).
   */
  async dispatch(request: DispatchRequest): Promise<DispatchAnswer> {
    const cut = request.target.search(/[?#]/);
    const pathname = cut < 0 ? request.target : request.target.slice(0, cut);
    const rest = cut < 0 ? '' : request.target.slice(cut);
    const search = rest.startsWith('?') ? rest.slice(1).split('#')[0] : '';
    const { endpoint, pathParams } = this.match(request.method, pathname);
    const query = parseQuery(search);
    if (request.body !== undefined) {
      if (!endpoint.validateBody) throw new ApiError(400, 'bad_request', `${endpoint.route.id} takes no body`, 'body');
      checkBodySize(endpoint.route, request.body);
    }
    const prepared = await this.prepare(endpoint, { query, pathParams, readBody: async () => request.body });
    const answer = await this.answer(prepared);
    return { route: endpoint.route, prepared, answer, encoded: await encodeBody(endpoint.route, answer, prepared.format) };
  }
}
