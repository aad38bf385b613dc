/**
 * OpenAI and Anthropic refuse a tool whose parameters have `anyOf`, `oneOf`, `allOf`, `not` or
 * `enum` at the top level ("input_schema does not support oneOf, allOf, or anyOf at the top
 * level"), and Gemini a `required` name its `properties` lack. The schema normalization already
 * flattens a root that is only a union; this folds what remains into one plain object: `allOf`
 * parts add their properties and requirements, union variants add theirs as optional (the
 * plugin still validates the call). Loosening, never tightening, keeps every valid call valid.
 */
import type { JSONSchema } from '../gate/types.js';
import { isPlainObject } from '../shared/plain-object.js';

export function plainObjectRoot(schema: JSONSchema): JSONSchema {
  const { allOf, anyOf, oneOf, not: _not, enum: _enum, ...root } = schema;
  const properties: Record<string, unknown> = { ...(isPlainObject(root.properties) ? root.properties : {}) };
  const required = new Set(names(root.required));
  const add = (part: unknown, requires: boolean) => {
    if (!isPlainObject(part)) return;
    if (isPlainObject(part.properties)) for (const [name, sub] of Object.entries(part.properties)) if (!(name in properties)) properties[name] = sub;
    if (requires) for (const name of names(part.required)) required.add(name);
  };
  for (const part of list(allOf)) add(part, true);
  for (const variant of [...list(anyOf), ...list(oneOf)]) add(variant, false);
  const out: JSONSchema = { ...root, type: 'object', properties };
  const known = [...required].filter((name) => name in properties);
  if (known.length > 0) out.required = known;
  else delete out.required;
  return out;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];
}
