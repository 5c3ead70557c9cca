// The catalog seen as documented operations: one per path form of a route, with the parameters
// that apply in that form, its sample requests and a curl command. Every generator reads this.
import { pathParamNames, type JsonSchema, type ParamSpec, type RequestBodySpec as CatalogRequestBodySpec, type Route } from '../../queries/catalog.ts';
import { RESERVED_QUERY_KEYS } from '../validate.ts';

export interface OperationParam {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: JsonSchema;
  description: string;
}

/** A route's JSON request body, as the catalog declares it (Route.requestBody). */
export type RequestBodySpec = CatalogRequestBodySpec;

export interface Operation {
  route: Route;
  /** The path form, OpenAPI style. */
  path: string;
  /** Unique across the catalog: the route id for its first path form, then `<id>By<PathParams>`. */
  operationId: string;
  params: OperationParam[];
  requestBody: RequestBodySpec | null;
  /** The route's sample requests of this path form (path and query). */
  examples: string[];
}

export function requestBodyOf(route: Route): RequestBodySpec | null {
  const body = route.requestBody;
  return body && typeof body === 'object' && body.schema ? body : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a sample request (path and query) is of the given path form. */
export function exampleMatches(path: string, example: string): boolean {
  const pattern = escapeRegExp(path).replace(/\\\{[^}]+\\\}/g, '[^/?]+');
  return new RegExp(`^${pattern}(\\?|$)`).test(example);
}

const FORMAT_PARAM: OperationParam = {
  name: RESERVED_QUERY_KEYS[0],
  in: 'query',
  required: false,
  schema: { type: 'string', enum: ['json', 'csv', 'arrow'], default: 'json' },
  description:
    'Output format of the list: `json` (application/json, the default), `csv` (text/csv with a header line) or `arrow` ' +
    '(an Apache Arrow IPC stream, application/vnd.apache.arrow.stream). Without it the Accept header chooses among the three.',
};

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A parameter family (`dim.<key>`) is shown under its key form; a plain parameter under its name. */
function displayName(name: string, spec: ParamSpec): string {
  return spec.family ? `${spec.family.prefix}<key>` : name;
}

function familyDescription(spec: ParamSpec, description: string): string {
  if (!spec.family) return description;
  const { prefix, keyPattern, maxKeys } = spec.family;
  return `${description} A family of query keys ${prefix}<key>=<value> (up to ${maxKeys}), <key> matching ${keyPattern}.`;
}

export function operationsOf(route: Route): Operation[] {
  return route.paths.map((path, index) => {
    const inPath = pathParamNames(path);
    const params: OperationParam[] = inPath.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: route.params[name]?.schema ?? { type: 'string' },
      description: route.params[name]?.description ?? '',
    }));
    for (const [name, spec] of Object.entries(route.params)) {
      if (inPath.includes(name) || !spec.in.includes('query')) continue;
      let description = spec.description;
      if (spec.bareFlags?.length && !/bare flag/i.test(description)) {
        description += ` May be given as a bare flag: ${spec.bareFlags.map((flag) => `?${flag}`).join(', ')}.`;
      }
      params.push({ name: displayName(name, spec), in: 'query', required: Boolean(spec.required), schema: spec.schema, description: familyDescription(spec, description) });
    }
    if (route.listRows) params.push(FORMAT_PARAM);
    const operationId = index === 0 ? route.id : `${route.id}By${inPath.map(capitalized).join('And') || index}`;
    return {
      route,
      path,
      operationId,
      params,
      requestBody: requestBodyOf(route),
      examples: route.examples.filter((example) => exampleMatches(path, example)),
    };
  });
}

export function allOperations(routes: readonly Route[]): Operation[] {
  return routes.flatMap(operationsOf);
}

/** A POSIX-shell single-quoted word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A copyable curl command for one sample request. */
export function curlCommand(baseUrl: string, operation: Operation, example: string): string {
  const parts = ['curl', '-sS'];
  if (operation.route.method !== 'GET') parts.push('-X', operation.route.method);
  if (operation.requestBody) {
    parts.push('-H', shellQuote(`Content-Type: ${operation.requestBody.contentType ?? 'application/json'}`));
    if (operation.requestBody.example !== undefined) parts.push('-d', shellQuote(JSON.stringify(operation.requestBody.example)));
  }
  parts.push(shellQuote(baseUrl + example));
  return parts.join(' ');
}

function typeName(schema: JsonSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const named = types.filter((type) => type !== 'null');
  const name = named.length > 0 ? named.join(' or ') : schema.enum ? 'string' : schema.properties ? 'object' : 'any';
  return types.includes('null') ? `${name} or null` : name;
}

/** "integer, 1990 to 2100, default 5" : the type and limits of a parameter in words. */
export function describeSchema(schema: JsonSchema): string {
  if (schema.const !== undefined) return `always ${JSON.stringify(schema.const)}`;
  const parts = [typeName(schema)];
  if (schema.enum) parts.push(`one of ${schema.enum.map(String).join(', ')}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) parts.push(`at least ${schema.minimum}`);
  else if (schema.maximum !== undefined) parts.push(`at most ${schema.maximum}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) {
    parts.push(`length ${schema.minLength ?? 0} to ${schema.maxLength ?? 'any'}`);
  }
  if (schema.pattern !== undefined) parts.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

export interface ParamRow {
  name: string;
  /** "query", "path" or "query or path". */
  location: string;
  /** "yes", "no", or "in the path form" for a parameter that is only required as a path segment. */
  required: string;
  type: string;
  description: string;
}

/** One row per parameter of a route over all its path forms (the docs' parameter table). */
export function paramRows(route: Route): ParamRow[] {
  const inAnyPath = new Set(route.paths.flatMap(pathParamNames));
  const rows: ParamRow[] = Object.entries(route.params).map(([name, spec]) => {
    const locations = [...new Set([...(spec.in.includes('query') ? ['query'] : []), ...(inAnyPath.has(name) ? ['path'] : [])])];
    let description = spec.description;
    if (spec.bareFlags?.length && !/bare flag/i.test(description)) description += ` May be given as a bare flag: ${spec.bareFlags.map((flag) => `?${flag}`).join(', ')}.`;
    description = familyDescription(spec, description);
    return {
      name: displayName(name, spec),
      location: locations.join(' or '),
      required: spec.required ? 'yes' : inAnyPath.has(name) ? 'in the path form' : 'no',
      type: describeSchema(spec.schema),
      description,
    };
  });
  if (route.listRows) {
    rows.push({ name: FORMAT_PARAM.name, location: 'query', required: 'no', type: describeSchema(FORMAT_PARAM.schema), description: FORMAT_PARAM.description });
  }
  return rows;
}

/** One row per field of a route's JSON request body (the docs' body table); empty without a body. */
export function bodyRows(route: Route): Array<{ name: string; required: string; type: string; description: string }> {
  const schema = requestBodyOf(route)?.schema;
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name) ? 'yes' : 'no',
    type: describeSchema({ ...property, description: undefined }),
    description: property.description ?? '',
  }));
}

export interface FieldNode {
  name: string;
  type: string;
  description: string;
  children: FieldNode[];
}

/** The fields of a response schema as a tree (objects and arrays of objects open up). */
export function schemaFields(schema: JsonSchema, depth = 0): FieldNode[] {
  const objectSchema = schema.items ?? schema;
  if (!objectSchema.properties || depth > 4) return [];
  return Object.entries(objectSchema.properties).map(([name, property]) => {
    const isArray = property.type === 'array' || (Array.isArray(property.type) && property.type.includes('array'));
    const itemType = isArray && property.items ? typeName(property.items) : '';
    return {
      name,
      type: isArray ? `array of ${itemType || 'values'}${typeName(property).includes('null') ? ' or null' : ''}` : describeSchema(property),
      description: property.description ?? '',
      children: schemaFields(isArray && property.items ? property.items : property, depth + 1),
    };
  });
}
