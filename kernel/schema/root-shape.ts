import { isPlainObject } from '../shared/plain-object.js';
import type { JSONSchema } from '../gate/types.js';
import { typeList } from './walk.js';

function isEnumLike(schema: unknown): schema is JSONSchema {
  return isPlainObject(schema) && (Array.isArray(schema.enum) || 'const' in schema);
}

function enumValues(schema: JSONSchema): unknown[] {
  return Array.isArray(schema.enum) ? schema.enum : [schema.const];
}

/** Merge one property seen in several variants: literal sets union, otherwise the first wins. */
function mergeProperty(existing: unknown, next: unknown): unknown {
  if (!isEnumLike(existing) || !isEnumLike(next)) return existing;
  const values = [...enumValues(existing)];
  for (const value of enumValues(next)) if (!values.some((v) => JSON.stringify(v) === JSON.stringify(value))) values.push(value);
  const { const: _c, ...rest } = existing;
  return { ...rest, enum: values };
}

/**
 * A top-level `anyOf`/`oneOf` of object variants becomes one object schema: properties
 * merged, required = the root's own, else the keys every object variant requires.
 */
function flattenUnion(schema: JSONSchema, variants: unknown[]): JSONSchema {
  const objects = variants.filter(isPlainObject);
  const properties: Record<string, unknown> = { ...(isPlainObject(schema.properties) ? schema.properties : {}) };
  for (const variant of objects) {
    if (!isPlainObject(variant.properties)) continue;
    for (const [name, sub] of Object.entries(variant.properties)) {
      properties[name] = name in properties ? mergeProperty(properties[name], sub) : sub;
    }
  }
  const requiredBy = (v: JSONSchema) => (Array.isArray(v.required) ? v.required.filter((r) => typeof r === 'string') : []);
  const required = Array.isArray(schema.required)
    ? schema.required
    : objects.length === 0 ? [] : requiredBy(objects[0]).filter((key) => objects.every((v) => requiredBy(v).includes(key)));
  const out: JSONSchema = { type: 'object', properties };
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  if (required.length > 0) out.required = required;
  out.additionalProperties = 'additionalProperties' in schema ? schema.additionalProperties : true;
  return out;
}

/**
 * Shape the root as providers expect a tool's parameters: an object schema with
 * `properties`. A root that cannot describe an object (e.g. `type: "string"`, or not a
 * schema at all) is replaced by the empty object schema: kernel params are always objects.
 */
export function shapeRoot(schema: unknown): JSONSchema {
  if (!isPlainObject(schema)) return { type: 'object', properties: {} };
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union && !isPlainObject(schema.properties)) return flattenUnion(schema, union);
  if (Array.isArray(schema.allOf)) return schema;
  const types = typeList(schema);
  if (types.length > 0 && !types.includes('object')) return { type: 'object', properties: {} };
  const out: JSONSchema = { ...schema };
  if (types.length === 0) out.type = 'object';
  if (!isPlainObject(out.properties)) out.properties = {};
  return out;
}
