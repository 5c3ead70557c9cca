// JSON request bodies of the catalog's POST routes (Route.requestBody): the content type, the size
// limit counted while reading (nothing past the limit is kept), JSON parsing and the schema, each
// failure a JSON error naming what is wrong. The pipeline runs this before the payment check, so an
// invalid body is never charged.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type Koa from 'koa';
import { DEFAULT_BODY_MAX_BYTES, type JsonSchema, type RequestBodySpec } from '../queries/catalog.ts';
import { ApiError, invalidParameter } from '../queries/shared/errors.ts';
import { sendContinue } from './httpServer.ts';
import { compiledOnFirstUse } from './validate.ts';

const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true, coerceTypes: false, useDefaults: false });

/** A POST route's body check; its ajv schema compiles on first use, as a ParamValidator's does (http/validate.ts). */
export interface BodyValidator {
  (body: unknown): Record<string, unknown>;
  /** Compiles the schema now, if not yet done. */
  compile(): void;
  readonly compiled: boolean;
}

function typeText(schema: JsonSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const names = types.map((type) => ({ string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false', object: 'an object', array: 'an array', null: 'null' })[type]);
  return names.join(' or ') || 'a value';
}

function describeField(name: string, schema: JsonSchema | undefined, error: ErrorObject): string {
  if (!schema) return `${name} is invalid`;
  const what = schema.description ? ` (${schema.description})` : '';
  switch (error.keyword) {
    case 'type':
      return `${name} must be ${typeText(schema)}${what}`;
    case 'minimum':
      return `${name} must be a number >= ${schema.minimum}`;
    case 'maximum':
      return `${name} must be a number <= ${schema.maximum}`;
    case 'minLength':
    case 'pattern':
      if (schema.pattern === '\\S') return `${name} must not be blank`;
      return `${name} is not valid${what}`;
    case 'maxLength':
      return `${name} must have at most ${schema.maxLength} characters`;
    case 'enum':
      return `${name} must be one of: ${(schema.enum ?? []).join(', ')}`;
    default:
      return `${name} is not valid${what}`;
  }
}

/** The schema check of a body: unknown fields first, then missing ones, then each field's schema, then `check`. */
export function buildBodyValidator(spec: RequestBodySpec): BodyValidator {
  const schema = spec.schema;
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  let validate: ValidateFunction | null = null;
  const compile = () => {
    validate ??= ajv.compile(schema);
  };
  const check = (body: unknown): Record<string, unknown> => {
    compile();
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw invalidParameter('body', `the body must be a JSON object with the fields ${known.join(', ')} (got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body})`);
    }
    const object = body as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      if (!Object.hasOwn(properties, key)) throw invalidParameter(key, `unknown field ${key}; the body takes: ${known.join(', ')}`);
    }
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(object, name) || object[name] === undefined) throw invalidParameter(name, `${name} is required`);
    }
    if (!validate!(object)) {
      const error = validate!.errors![0];
      const name = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
      const top = name.split('.')[0];
      throw invalidParameter(name, describeField(name, Object.hasOwn(properties, top) ? properties[top] : undefined, error));
    }
    const refusal = spec.check?.(object);
    if (refusal) throw refusal;
    return object;
  };
  return compiledOnFirstUse(check, compile, () => validate !== null);
}

/** `application/json`, optionally with `charset=utf-8`: anything else is a 415. */
function checkContentType(ctx: Koa.Context): void {
  const header = ctx.get('Content-Type');
  const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((part) => part.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (mediaType !== 'application/json' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new ApiError(415, 'unsupported_media_type', `send the body as JSON with Content-Type: application/json${header ? ` (got ${header})` : ' (none was given)'}`, 'Content-Type');
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `the body is larger than ${maxBytes} bytes`, 'body');
}

/**
 * Reads the request body, at most `maxBytes`: a Content-Length above the limit is refused before
 * reading (and before any `100 Continue`: http/httpServer.ts), and a body that grows past it while streaming is cut there (the rest is not read and the
 * connection is closed after the answer).
 */
export async function readBodyBytes(ctx: Koa.Context, maxBytes: number): Promise<Buffer> {
  const declared = ctx.get('Content-Length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    ctx.set('Connection', 'close');
    throw tooLarge(maxBytes);
  }
  const request = ctx.req;
  // The checks before reading passed: a client waiting for `100 Continue` may send its body now.
  sendContinue(request, ctx.res);
  return await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onAborted);
      request.off('close', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        request.pause();
        ctx.set('Connection', 'close');
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error & { code?: string }) => {
      cleanup();
      // The body did not arrive within HTTP_REQUEST_TIMEOUT_MS: Node has answered 408 and closed the
      // connection; a client's slowness, not a server error to log.
      reject(error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? invalidParameter('body', 'the request body did not arrive in time') : error);
    };
    const onAborted = () => {
      cleanup();
      reject(invalidParameter('body', 'the request was aborted while its body was sent'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onAborted);
    // A connection closed before the end of the body (the client went away): do not wait for it.
    request.on('close', onAborted);
  });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Content type, size, UTF-8 and JSON: the parsed body (any JSON value; the validator wants an object). */
export async function readJsonBody(ctx: Koa.Context, spec: RequestBodySpec): Promise<unknown> {
  checkContentType(ctx);
  const bytes = await readBodyBytes(ctx, spec.maxBytes ?? DEFAULT_BODY_MAX_BYTES);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw invalidParameter('body', 'the body is not valid UTF-8');
  }
  if (text.trim() === '') throw invalidParameter('body', 'the body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidParameter('body', `the body is not valid JSON: ${(error as Error).message}`);
  }
}
