import { isPlainObject } from '../shared/plain-object.js';
import { requiredFieldNames, schemaRequiresFields } from '../schema/required.js';
import type { JSONSchema } from '../gate/types.js';

/** Coerced params, or a message the model can act on. */
export type CoercedParams = { ok: true; params: Record<string, unknown> } | { ok: false; message: string };

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : `a ${typeof value}`;
}

/**
 * Make params a plain object (SPEC §9.1): objects pass; a JSON string (streaming providers
 * such as Gemini can deliver arguments as text) is parsed; no arguments at all become `{}`
 * when the schema requires nothing. Everything else is refused with a reason.
 */
export function coerceToolParams(toolName: string, schema: JSONSchema | undefined, raw: unknown): CoercedParams {
  if (isPlainObject(raw)) return { ok: true, params: raw };
  let value = raw;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') value = undefined;
    else {
      try {
        value = JSON.parse(trimmed);
      } catch {
        return { ok: false, message: `Tool "${toolName}" received arguments that are not valid JSON; send a JSON object.` };
      }
      if (isPlainObject(value)) return { ok: true, params: value };
    }
  }
  if (value === undefined || value === null) {
    if (!schemaRequiresFields(schema)) return { ok: true, params: {} };
    const names = requiredFieldNames(schema);
    const list = names.length ? ` (${names.join(', ')})` : '';
    return { ok: false, message: `Tool "${toolName}" requires arguments${list} but the call had none.` };
  }
  return { ok: false, message: `Tool "${toolName}" arguments must be a JSON object, not ${kindOf(value)}.` };
}
