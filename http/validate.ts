// Request parameters -> validated, typed values, built from the catalog's declarations.
// One ajv validator per path form (a parameter in the path template is required there).
// Every failure is a 400 naming the parameter; nothing reaches a handler unvalidated.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { pathParamNames, type ParamSpec, type Route } from '../queries/catalog.ts';
import { invalidParameter, type ApiError } from '../queries/shared/errors.ts';

/** Query keys every route accepts besides its own parameters (output format). */
export const RESERVED_QUERY_KEYS = ['format'] as const;

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * A path form's parameter check. Its ajv schemas compile on first use, about 5 ms each: a process
 * that answers a few routes (a query CLI, the MCP server, a test) does not compile all of them;
 * the server compiles every one in the background once it listens (warmValidators, http/dispatch.ts).
 */
export interface ParamValidator {
  (query: RawQuery, pathParams: Record<string, string>): Record<string, unknown>;
  /** Compiles the schemas now, if not yet done. */
  compile(): void;
  readonly compiled: boolean;
}

/** `check` with compile() and compiled, for a validator whose ajv schemas compile on first use (`compile` runs once they are compiled). */
export function compiledOnFirstUse<F extends (...args: never[]) => unknown>(check: F, compile: () => void, compiled: () => boolean): F & { compile(): void; readonly compiled: boolean } {
  return Object.defineProperties(check, { compile: { value: compile }, compiled: { get: compiled } }) as F & { compile(): void; readonly compiled: boolean };
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: true });

function describeSchema(name: string, spec: ParamSpec): string {
  const { schema } = spec;
  if (schema.enum) return `${name} must be one of: ${schema.enum.join(', ')}`;
  if (schema.type === 'integer' || schema.type === 'number') {
    const kind = schema.type === 'integer' ? 'an integer' : 'a number';
    if (schema.minimum !== undefined && schema.maximum !== undefined) return `${name} must be ${kind} from ${schema.minimum} to ${schema.maximum}`;
    if (schema.minimum !== undefined) return `${name} must be ${kind} >= ${schema.minimum}`;
    return `${name} must be ${kind}`;
  }
  if (schema.type === 'boolean') return `${name} must be true or false`;
  if (schema.maxLength !== undefined) return `${name} must be a non-empty string of at most ${schema.maxLength} characters`;
  return `${name} is invalid`;
}

function toApiError(error: ErrorObject, route: Route): ApiError {
  if (error.keyword === 'required') {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return invalidParameter(name, `${name} is required`);
  }
  const name = error.instancePath.replace(/^\//, '');
  const spec = route.params[name];
  return invalidParameter(name, spec ? describeSchema(name, spec) : `${name} is invalid`);
}

const STRICT_NUMBER: Record<string, RegExp> = {
  integer: /^-?\d{1,15}$/,
  number: /^-?\d{1,15}(\.\d{1,15})?$/,
  boolean: /^(true|false)$/,
};

/**
 * Query values are text. ajv's own coercion is loose ("1e400" -> Infinity, "0x10" -> 16, " 5" -> 5),
 * so numbers and booleans must be plain decimals / true / false before they are converted.
 */
function coerceStrictly(name: string, spec: ParamSpec, raw: string): unknown {
  const type = spec.schema.type;
  if (type !== 'integer' && type !== 'number' && type !== 'boolean') return raw;
  if (!STRICT_NUMBER[type].test(raw)) throw invalidParameter(name, describeSchema(name, spec));
  return type === 'boolean' ? raw === 'true' : Number(raw);
}

/** Resolves bare flags (`?days` -> period=days) into their parameter. */
function applyBareFlags(route: Route, input: Record<string, string>, flagKeys: Set<string>): void {
  for (const [name, spec] of Object.entries(route.params)) {
    if (!spec.bareFlags) continue;
    const given = spec.bareFlags.filter((flag) => flag in input);
    for (const flag of given) delete input[flag];
    if (given.length > 1) throw invalidParameter(name, `give one ${name} only (got ${given.map((g) => `?${g}`).join(', ')})`);
    if (given.length === 1) {
      if (name in input && input[name].toLowerCase() !== given[0]) {
        throw invalidParameter(name, `${name}=${input[name]} conflicts with the flag ?${given[0]}`);
      }
      input[name] = given[0];
    }
  }
  for (const key of flagKeys) delete input[key];
}

/** A parameter family (`dim.<key>=<value>`): collects its keys from the query, each key and value checked. */
interface FamilyReader {
  name: string;
  spec: ParamSpec & { family: NonNullable<ParamSpec['family']> };
  keyPattern: RegExp;
  /** Set by the validator's compile(). */
  validate?: ValidateFunction;
}

function familyReaders(route: Route): FamilyReader[] {
  return Object.entries(route.params).flatMap(([name, spec]) =>
    spec.family ? [{ name, spec: spec as FamilyReader['spec'], keyPattern: new RegExp(spec.family.keyPattern) }] : [],
  );
}

/** Reads `<prefix><key>=<value>` query keys into {key: value} per family; throws a 400 naming the query key. */
function readFamilies(readers: readonly FamilyReader[], query: RawQuery, params: Record<string, unknown>): Set<string> {
  const consumed = new Set<string>();
  for (const reader of readers) {
    const { prefix, maxKeys } = reader.spec.family;
    const found: Array<[string, string]> = [];
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || !key.startsWith(prefix)) continue;
      consumed.add(key);
      const sub = key.slice(prefix.length);
      if (!reader.keyPattern.test(sub)) throw invalidParameter(key, `${key}: the key after ${prefix} must match ${reader.spec.family.keyPattern}`);
      if (Array.isArray(value)) throw invalidParameter(key, `${key} was given more than once`);
      if (!reader.validate!(value)) throw invalidParameter(key, describeSchema(key, reader.spec));
      found.push([sub, value]);
    }
    if (found.length > maxKeys) throw invalidParameter(`${prefix}*`, `at most ${maxKeys} ${prefix}<key> filters (got ${found.length})`);
    if (found.length > 0) params[reader.name] = Object.fromEntries(found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return consumed;
}

export function buildValidator(route: Route, path: string): ParamValidator {
  const inPath = new Set(pathParamNames(path));
  const properties: Record<string, object> = {};
  const required: string[] = [];
  const families = familyReaders(route);
  for (const [name, spec] of Object.entries(route.params)) {
    if (spec.family) continue;
    properties[name] = spec.schema;
    if (inPath.has(name) || (spec.required && spec.in.includes('query'))) required.push(name);
  }
  const schema = { type: 'object', properties, required, additionalProperties: false };
  let validate: ValidateFunction | null = null;
  const compile = () => {
    if (validate) return;
    for (const reader of families) reader.validate = ajv.compile(reader.spec.schema);
    validate = ajv.compile(schema);
  };
  const flagKeys = new Set(Object.values(route.params).flatMap((spec) => spec.bareFlags ?? []));
  const allowed = [
    ...Object.entries(route.params).filter(([n, spec]) => !inPath.has(n) && !spec.family).map(([n]) => n),
    ...flagKeys, ...RESERVED_QUERY_KEYS,
  ];
  const familyNames = families.map((f) => `${f.spec.family.prefix}<key>`);

  const check = (query: RawQuery, pathParams: Record<string, string>): Record<string, unknown> => {
    compile();
    const input: Record<string, string> = {};
    const familyValues: Record<string, unknown> = {};
    const consumed = families.length > 0 ? readFamilies(families, query, familyValues) : null;
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || consumed?.has(key)) continue;
      if (inPath.has(key)) throw invalidParameter(key, `${key} is given in the path; do not repeat it in the query`);
      if (!allowed.includes(key)) {
        throw invalidParameter(key, `unknown parameter ${key}; this endpoint takes: ${[...allowed.filter((k) => !flagKeys.has(k)), ...familyNames].join(', ')}`);
      }
      if (Array.isArray(value)) throw invalidParameter(key, `${key} was given more than once`);
      if ((RESERVED_QUERY_KEYS as readonly string[]).includes(key)) continue;
      input[key] = value;
    }
    applyBareFlags(route, input, flagKeys);
    Object.assign(input, pathParams);
    for (const [name, value] of Object.entries(input)) {
      const normalize = route.params[name]?.normalize;
      if (normalize === 'upper') input[name] = value.toUpperCase();
      if (normalize === 'lower') input[name] = value.toLowerCase();
    }
    const params: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      const spec = route.params[name];
      params[name] = spec ? coerceStrictly(name, spec, value) : value;
    }
    if (!validate!(params)) throw toApiError(validate!.errors![0], route);
    Object.assign(params, familyValues);
    for (const routeCheck of route.checks ?? []) {
      const error = routeCheck.check(params);
      if (error) throw error;
    }
    return params;
  };
  return compiledOnFirstUse(check, compile, () => validate !== null);
}
