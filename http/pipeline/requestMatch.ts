// What the pipeline knows about a catalog request, as one typed value: found once by matchRoute (the
// route, its path form, whether it is paid and whether this client must pay), completed by validate
// (typed parameters, body, format) and answer (the encoded answer). Every later stage reads it here.
import type Koa from 'koa';
import type { Route } from '../../queries/catalog.ts';
import type { CachedAnswer } from '../cache.ts';
import type { Endpoint } from '../dispatch.ts';
import type { OutputFormat } from '../formats.ts';
import type { RawQuery } from '../validate.ts';

/** A request's parameters, body and format once validated (400 otherwise, before any payment). */
export interface ValidatedRequest {
  params: Record<string, unknown>;
  body?: Record<string, unknown>;
  format: OutputFormat;
}

export interface RequestMatch {
  /** The path form the path matched: the first (catalog order) whose route takes the method, else the first matching. */
  readonly endpoint: Endpoint;
  readonly route: Route;
  /** The path form, OpenAPI style (`/api/x/{year}`). */
  readonly pathForm: string;
  /** The query, parsed once (http/pipeline/boundQuery.ts): a null-prototype object, a repeated key as an array. */
  readonly query: RawQuery;
  /** Decoded path parameters as sent (validated: `validated.params`). */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Whether the route takes the method (HEAD as GET); false: the path exists, the method does not (405, OPTIONS). */
  readonly methodTaken: boolean;
  /** The methods of every route on this path, in catalog order, each once (`GET`, `POST`). */
  readonly routeMethods: readonly string[];
  readonly paid: boolean;
  /** Whether this request must pass the payment check (a paid route, a client that is not exempt). */
  readonly needsPayment: boolean;
  /** Set by the validate stage. */
  validated?: ValidatedRequest;
  /** Set by the answer stage: the bytes to send. */
  answer?: CachedAnswer;
}

const matches = new WeakMap<Koa.Context, RequestMatch>();

/** The catalog match of this request; undefined when its path is no catalog path (health, docs, 404). */
export function matchOf(ctx: Koa.Context): RequestMatch | undefined {
  return matches.get(ctx);
}

/** The match of a request that passed validation: for the stages after it (payment, answer, send). */
export function validatedMatchOf(ctx: Koa.Context): RequestMatch & { validated: ValidatedRequest } {
  const match = matches.get(ctx);
  if (!match?.validated) throw new Error(`no validated catalog request for ${ctx.method} ${ctx.path}`);
  return match as RequestMatch & { validated: ValidatedRequest };
}

/** Only the matchRoute stage sets it. */
export function setMatch(ctx: Koa.Context, match: RequestMatch): void {
  matches.set(ctx, match);
}
