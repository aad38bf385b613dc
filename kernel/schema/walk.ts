import { isPlainObject } from '../shared/plain-object.js';
import type { JSONSchema } from '../gate/types.js';

/** Keywords whose value is one subschema. */
const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas (the names are data, not keywords). */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * Copy a schema node, applying `fn` to every direct subschema. Knowing which keywords hold
 * subschemas keeps transformations from touching property *names* such as `"nullable"`.
 */
export function mapSubschemas(schema: JSONSchema, fn: (sub: unknown) => unknown): JSONSchema {
  const out: JSONSchema = { ...schema };
  for (const key of SINGLE) {
    if (isPlainObject(out[key])) out[key] = fn(out[key]);
    else if (key === 'items' && Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(fn);
  }
  for (const key of LIST) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(fn);
  }
  for (const key of MAP) {
    const map = out[key];
    if (isPlainObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, fn(sub)]));
  }
  return out;
}

/** Apply `transform` bottom-up to every schema node of a tree (no cycles: inline refs first). */
export function transformSchemaTree(schema: unknown, transform: (node: JSONSchema) => JSONSchema): unknown {
  if (!isPlainObject(schema)) return schema;
  return transform(mapSubschemas(schema, (sub) => transformSchemaTree(sub, transform)));
}

/** The `type` keyword as a list (absent → empty). */
export function typeList(schema: JSONSchema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}
