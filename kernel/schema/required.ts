import { isPlainObject } from '../shared/plain-object.js';

const VARIANT_KEYS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * True when the schema (root, or any allOf/anyOf/oneOf variant, recursively) lists a
 * required field. When false, a call with no arguments can safely become `{}`.
 */
export function schemaRequiresFields(schema: unknown, seen: Set<unknown> = new Set()): boolean {
  if (!isPlainObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (Array.isArray(schema.required) && schema.required.length > 0) return true;
  return VARIANT_KEYS.some((key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).some((v) => schemaRequiresFields(v, seen)));
}

/** Root `required` names of a schema (for messages). */
export function requiredFieldNames(schema: unknown): string[] {
  return isPlainObject(schema) && Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}
