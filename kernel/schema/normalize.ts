import { deepFreeze } from '../gate/params.js';
import { DEFAULT_SCHEMA_LIMITS, SchemaBudget, measureJson } from './bounds.js';
import type { JSONSchema } from '../gate/types.js';
import { ensureArrayItems } from './array-items.js';
import { cleanSchemaForGemini, stripKeywords } from './gemini.js';
import { inlineLocalRefs } from './inline-refs.js';
import { cleanOpenApiKeywords } from './openapi-cleanup.js';
import { schemaProviderFamily, schemaTargetKey, type SchemaTarget } from './provider.js';
import { shapeRoot } from './root-shape.js';
import { isPlainObject } from '../shared/plain-object.js';

/** Variants kept per schema object (one per provider/compat combination in use). */
export const MAX_CACHED_VARIANTS = 8;

const cache = new WeakMap<object, Map<string, JSONSchema>>();

/**
 * The pipeline of SPEC §9.2: inline local refs → OpenAPI cleanup → root shaping → array
 * items → provider cleaning (Gemini strips and converts; OpenAI needs only the object root
 * of step 3; Anthropic gets no extra cleaning). Pure; see `normalizeToolSchema` for the cache.
 * Inlining runs within the default schema limits (SchemaLimitError past them); the later
 * steps walk its output, so they are bounded too.
 */
export function normalizeSchemaUncached(schema: unknown, target: SchemaTarget = {}): JSONSchema {
  let out: JSONSchema = isPlainObject(schema) ? inlineLocalRefs(schema) : {};
  out = cleanOpenApiKeywords(out);
  out = shapeRoot(out);
  out = ensureArrayItems(out, target.compat?.omitEmptyArrayItems === true);
  if (schemaProviderFamily(target) === 'gemini') out = cleanSchemaForGemini(out);
  return stripKeywords(out, target.compat?.unsupportedKeywords ?? []);
}

/**
 * Normalize a tool's parameter schema for a provider, once: results are cached per schema
 * object and target (at most 8 variants per schema, oldest evicted) and deep-frozen, so
 * assembling tools for every run pays the cost only the first time.
 */
export function normalizeToolSchema(schema: unknown, target: SchemaTarget = {}): JSONSchema {
  if (!isPlainObject(schema)) return normalizeSchemaUncached(schema, target);
  const key = schemaTargetKey(target);
  let variants = cache.get(schema);
  const hit = variants?.get(key);
  if (hit) return hit;
  const normalized = deepFreeze(normalizeSchemaUncached(schema, target));
  if (!variants) cache.set(schema, (variants = new Map()));
  if (variants.size >= MAX_CACHED_VARIANTS) variants.delete(variants.keys().next().value as string);
  variants.set(key, normalized);
  return normalized;
}

/**
 * Checks a schema a plugin sent against the limits, as received and as normalization would
 * expand it; throws SchemaLimitError naming the limit. What passes normalizes within the limits.
 * Returns the number of nodes inlining builds (what one normalized copy costs).
 */
export function assertSchemaWithinLimits(schema: unknown, maxNodes = DEFAULT_SCHEMA_LIMITS.maxNodes): number {
  // A smaller node limit may be asked for (a caller's remaining budget), never a larger one.
  const limits = { ...DEFAULT_SCHEMA_LIMITS, maxNodes: Math.min(maxNodes, DEFAULT_SCHEMA_LIMITS.maxNodes) };
  measureJson(schema, new SchemaBudget(limits));
  if (!isPlainObject(schema)) return 1;
  const budget = new SchemaBudget(limits);
  inlineLocalRefs(schema, budget);
  return budget.used;
}
