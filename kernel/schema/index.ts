export { normalizeToolSchema, normalizeSchemaUncached, MAX_CACHED_VARIANTS } from './normalize.js';
export { schemaProviderFamily, schemaTargetKey } from './provider.js';
export type { SchemaTarget, SchemaProviderFamily } from './provider.js';
export { inlineLocalRefs } from './inline-refs.js';
export { cleanOpenApiKeywords, OPENAPI_KEYWORDS } from './openapi-cleanup.js';
export { shapeRoot } from './root-shape.js';
export { ensureArrayItems } from './array-items.js';
export { cleanSchemaForGemini, stripKeywords, GEMINI_UNSUPPORTED_KEYWORDS } from './gemini.js';
export { schemaRequiresFields, requiredFieldNames } from './required.js';
