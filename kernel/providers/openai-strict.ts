/**
 * OpenAI strict mode (Structured Outputs for function calls), as documented: every object lists
 * all its properties in `required` and sets `additionalProperties: false`; a property that was
 * optional becomes nullable instead (the model sends null for "not given"); only the supported
 * keywords survive (string `format`s from the supported list); at most 5,000 properties, 10
 * levels of object nesting and 1,000 enum values. A schema strict mode cannot express (a map of
 * arbitrary keys, a free-form value, past a limit) is reported, never silently narrowed.
 */
import type { JSONSchema } from '../gate/types.js';
import { isPlainObject } from '../shared/plain-object.js';

const KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', 'title', '$ref', '$defs',
  'definitions', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
export const STRICT_LIMITS = { properties: 5000, objectDepth: 10, enumValues: 1000 } as const;

export type StrictResult = { ok: true; schema: JSONSchema } | { ok: false; reason: string };

class NotStrict extends Error {}

interface Walk {
  properties: number;
  enumValues: number;
}

export function toStrictSchema(root: JSONSchema): StrictResult {
  const walk: Walk = { properties: 0, enumValues: 0 };
  try {
    const schema = strictObject(keep(root), root, 'parameters', 1, walk, true);
    if (walk.properties > STRICT_LIMITS.properties) throw new NotStrict(`it has ${walk.properties} properties (strict mode allows ${STRICT_LIMITS.properties})`);
    if (walk.enumValues > STRICT_LIMITS.enumValues) throw new NotStrict(`it has ${walk.enumValues} enum values (strict mode allows ${STRICT_LIMITS.enumValues})`);
    return { ok: true, schema };
  } catch (cause) {
    if (cause instanceof NotStrict) return { ok: false, reason: cause.message };
    throw cause;
  }
}

function strictNode(node: unknown, path: string, depth: number, walk: Walk): unknown {
  if (!isPlainObject(node)) throw new NotStrict(`${path} is not a schema object`);
  const out = keep(node);
  if (Array.isArray(out.enum)) walk.enumValues += out.enum.length;
  if (Array.isArray(out.items)) throw new NotStrict(`${path} is a tuple, which strict mode cannot express`);
  if (out.items !== undefined) out.items = strictNode(out.items, `${path}[]`, depth, walk);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((variant, i) => strictNode(variant, `${path}.anyOf[${i}]`, depth, walk));
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = out[key];
    if (isPlainObject(defs)) out[key] = Object.fromEntries(Object.entries(defs).map(([name, sub]) => [name, strictNode(sub, `${path}.${key}.${name}`, depth, walk)]));
  }
  if (types(out).includes('object') || isPlainObject(node.properties)) return strictObject(out, node, path, depth, walk, false);
  if (out.type === undefined && out.enum === undefined && !('const' in out) && out.anyOf === undefined && out.$ref === undefined) {
    throw new NotStrict(`${path} accepts any value, which strict mode cannot express`);
  }
  return out;
}

function strictObject(out: JSONSchema, node: JSONSchema, path: string, depth: number, walk: Walk, isRoot: boolean): JSONSchema {
  if (depth > STRICT_LIMITS.objectDepth) throw new NotStrict(`${path} nests objects deeper than ${STRICT_LIMITS.objectDepth} levels`);
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const names = Object.keys(properties);
  if (isPlainObject(node.additionalProperties)) throw new NotStrict(`${path} takes keys of its own choosing (additionalProperties), which strict mode cannot express`);
  // A parameterless tool is an empty object; anywhere else an object without properties is free-form.
  if (names.length === 0 && !isRoot && node.additionalProperties !== false) throw new NotStrict(`${path} is a free-form object, which strict mode cannot express`);
  walk.properties += names.length;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const strictProperties: Record<string, unknown> = {};
  for (const name of names) {
    const sub = strictNode(properties[name], `${path}.${name}`, depth + 1, walk);
    strictProperties[name] = required.has(name) ? sub : nullable(sub as JSONSchema);
  }
  return { ...out, type: 'object', properties: strictProperties, required: names, additionalProperties: false };
}

/** Optional → required but nullable: null joins the type (and the enum), or the schema becomes `anyOf [it, null]`. */
function nullable(schema: JSONSchema): JSONSchema {
  const list = types(schema);
  if (list.length > 0) {
    if (list.includes('null')) return schema;
    const out: JSONSchema = { ...schema, type: [...list, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((v) => isPlainObject(v) && v.type === 'null') ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

function keep(node: JSONSchema): JSONSchema {
  const out: JSONSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEYWORDS.has(key) || (key === 'format' && !FORMATS.has(String(value)))) continue;
    out[key] = value;
  }
  return out;
}

function types(schema: JSONSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}
