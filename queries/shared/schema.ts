// Small builders for response JSON Schemas, so each domain's schemas read like its field tables.
import type { JsonSchema } from '../catalog.ts';

export const decimalString: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description: 'decimal string with two decimals' };
export const isoDate: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
export const integer: JsonSchema = { type: 'integer' };
export const text: JsonSchema = { type: 'string' };
/** The schema or null (an enum gains null too, or null would fail it). */
export const nullable = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  type: [schema.type as 'string', 'null'],
  ...(schema.enum ? { enum: [...schema.enum, null as unknown as string] } : {}),
});
export const enumOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
export const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** A closed object: every listed field present, nothing else. */
export function object(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  };
}
