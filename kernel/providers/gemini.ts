/**
 * A run's tools as Gemini function declarations: `[{ functionDeclarations: [...] }]`. On top of
 * the kernel's Gemini cleaning (the OpenAPI subset, `const` as enum, `[T, null]` as nullable),
 * what the API documents or refuses: no `parameters` for a tool without any (an OBJECT's
 * properties must be non-empty), one type per schema (several become `anyOf`), a type beside an
 * enum, enums of strings only (other values move into the description, so calls keep their
 * types), and `required` names that exist in `properties`.
 */
import type { JSONSchema } from '../gate/types.js';
import { isPlainObject } from '../shared/plain-object.js';
import { normalizeToolSchema } from '../schema/index.js';
import { transformSchemaTree } from '../schema/walk.js';
import { plainObjectRoot } from './root-object.js';
import { checkToolName, type ProviderToolInput } from './tool-input.js';

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JSONSchema;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** One Gemini `Tool` holding every declaration; no tools → no Tool (an empty list is refused). */
export function toGeminiTools(tools: readonly ProviderToolInput[]): GeminiTool[] {
  if (tools.length === 0) return [];
  return [{ functionDeclarations: tools.map(declaration) }];
}

function declaration(tool: ProviderToolInput): GeminiFunctionDeclaration {
  checkToolName('gemini', tool.name);
  const root = plainObjectRoot(normalizeToolSchema(tool.inputSchema, { provider: 'google' }));
  const parameters = transformSchemaTree(root, geminiNode) as JSONSchema;
  const hasParameters = isPlainObject(parameters.properties) && Object.keys(parameters.properties).length > 0;
  return { name: tool.name, description: tool.description ?? '', ...(hasParameters ? { parameters } : {}) };
}

function geminiNode(node: JSONSchema): JSONSchema {
  let out: JSONSchema = { ...node };
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    const named = (type as unknown[]).filter((t) => t !== 'null');
    if (named.length < (type as unknown[]).length) rest.nullable = true;
    out = named.length === 1 ? { ...rest, type: named[0] } : { ...rest, anyOf: named.map((t) => ({ type: t })) };
  }
  if (Array.isArray(out.enum)) {
    const values = out.enum as unknown[];
    // Gemini's Schema wants a type beside an enum; the values say which.
    if (out.type === undefined && out.anyOf === undefined) out.type = typeOfAll(values);
    if (values.some((value) => typeof value !== 'string')) {
      const { enum: _values, ...rest } = out;
      const allowed = `One of: ${values.map((v) => JSON.stringify(v)).join(', ')}.`;
      out = { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${allowed}` : allowed };
    }
  }
  if (isPlainObject(out.properties)) {
    if (Object.keys(out.properties).length === 0) delete out.properties;
    else if (Array.isArray(out.required)) out.required = out.required.filter((name) => typeof name === 'string' && name in (out.properties as JSONSchema));
  }
  return out;
}

function typeOfAll(values: unknown[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  return values.every((v) => typeof v === 'boolean') ? 'boolean' : undefined;
}
