import type { JSONSchema } from '../gate/types.js';
import { transformSchemaTree, typeList } from './walk.js';

/** OpenAPI-only keywords that JSON Schema validators of model providers reject. */
export const OPENAPI_KEYWORDS = ['nullable', 'discriminator', 'externalDocs', 'readOnly', 'writeOnly', 'xml', 'example'];

function withoutOpenApiKeywords(node: JSONSchema): JSONSchema {
  const out = { ...node };
  for (const key of OPENAPI_KEYWORDS) delete out[key];
  return out;
}

/** `nullable: true` in JSON Schema terms: `null` joins the type or enum, or the node becomes a union. */
function applyNullable(node: JSONSchema): JSONSchema {
  const types = typeList(node);
  if (types.length > 0) return { ...node, type: types.includes('null') ? node.type : [...types, 'null'] };
  if (Array.isArray(node.enum)) return node.enum.includes(null) ? node : { ...node, enum: [...node.enum, null] };
  return { anyOf: [node, { type: 'null' }] };
}

/** Drop OpenAPI keywords everywhere, keeping `nullable`'s meaning. */
export function cleanOpenApiKeywords(schema: JSONSchema): JSONSchema {
  return transformSchemaTree(schema, (node) => {
    const cleaned = withoutOpenApiKeywords(node);
    return node.nullable === true ? applyNullable(cleaned) : cleaned;
  }) as JSONSchema;
}
