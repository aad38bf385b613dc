import { isPlainObject } from '../shared/plain-object.js';
import type { JSONSchema } from '../gate/types.js';
import { transformSchemaTree } from './walk.js';

/** Keywords Gemini's function-declaration schema rejects. */
export const GEMINI_UNSUPPORTED_KEYWORDS = [
  'patternProperties', 'additionalProperties', '$schema', '$id', '$ref', '$defs', 'definitions', 'examples',
  'minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf', 'pattern', 'format', 'minItems', 'maxItems',
  'uniqueItems', 'minProperties', 'maxProperties', 'not',
];

/** What Gemini does accept; anything else (vendor `x-*` keys, unknown keywords) is dropped too. */
const GEMINI_KEYWORDS = new Set([
  'type', 'title', 'description', 'enum', 'properties', 'required', 'items', 'anyOf', 'oneOf', 'allOf', 'default',
  'nullable', 'propertyOrdering',
]);

function literalValues(variant: unknown): unknown[] | undefined {
  if (!isPlainObject(variant)) return undefined;
  if (Array.isArray(variant.enum)) return variant.enum;
  return 'const' in variant ? [variant.const] : undefined;
}

/** anyOf/oneOf made only of literals → one enum (keeping a shared `type`). */
function flattenLiteralUnion(node: JSONSchema, key: 'anyOf' | 'oneOf'): JSONSchema {
  const variants = node[key];
  if (!Array.isArray(variants) || variants.length === 0) return node;
  const lists = variants.map(literalValues);
  if (lists.some((list) => list === undefined)) return node;
  const { [key]: _dropped, ...rest } = node;
  const types = new Set(variants.map((v) => (v as JSONSchema).type).filter((t) => typeof t === 'string'));
  return { ...(types.size === 1 ? { type: [...types][0] } : {}), ...rest, enum: lists.flat() };
}

/** Gemini cleaning (SPEC §9.2 step 5): strip unsupported keywords, `const` → one-value `enum`. */
export function cleanSchemaForGemini(schema: JSONSchema): JSONSchema {
  return transformSchemaTree(schema, (node) => {
    let out: JSONSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'const') out.enum = [value];
      else if (GEMINI_KEYWORDS.has(key)) out[key] = value;
    }
    // Gemini takes one type name; a `[T, "null"]` pair (from OpenAPI nullable) becomes T + nullable.
    if (Array.isArray(out.type)) {
      const types = out.type.filter((t) => t !== 'null');
      if (types.length === 1) out = { ...out, type: types[0], ...(types.length < out.type.length ? { nullable: true } : {}) };
    }
    out = flattenLiteralUnion(out, 'anyOf');
    return flattenLiteralUnion(out, 'oneOf');
  }) as JSONSchema;
}

/** Strip a model's declared unsupported keywords everywhere (e.g. validation keywords for xAI). */
export function stripKeywords(schema: JSONSchema, keywords: readonly string[]): JSONSchema {
  if (keywords.length === 0) return schema;
  return transformSchemaTree(schema, (node) => {
    const out = { ...node };
    for (const key of keywords) delete out[key];
    return out;
  }) as JSONSchema;
}
