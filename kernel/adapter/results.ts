import { isPlainObject } from '../shared/plain-object.js';
import type { ToolResult } from '../gate/types.js';

function stringify(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  try {
    return JSON.stringify(payload, null, 2) ?? String(payload);
  } catch {
    return String(payload);
  }
}

/** A text result carrying a JSON payload (and the payload as details when it is an object). */
export function jsonResult(payload: unknown, isError = false): ToolResult {
  return {
    content: [{ type: 'text', text: stringify(payload) }],
    ...(isPlainObject(payload) ? { details: payload } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

/** The result of a failed tool run, as the model sees it; `details.error` is `{code, message}`. */
export function errorResult(toolName: string, message: string, code = 'TOOL_FAILED'): ToolResult {
  return jsonResult({ status: 'error', tool: toolName, error: { code, message } }, true);
}

/**
 * Make any tool return value a `ToolResult` (SPEC §9.1): a result with a `content` array
 * passes; another object is shown as its `details` (or itself); anything else is shown as
 * is; nothing at all becomes `{status:"ok", tool}`. `onCoerce` lets the caller log it.
 */
export function normalizeToolResult(toolName: string, result: unknown, onCoerce?: (message: string) => void): ToolResult {
  if (isPlainObject(result) && Array.isArray(result.content)) return result as unknown as ToolResult;
  onCoerce?.(`tools: ${toolName} returned non-standard result (missing content[]); coercing`);
  const fallback = { status: 'ok', tool: toolName };
  if (result !== null && typeof result === 'object') {
    const record = result as Record<string, unknown>;
    return jsonResult(('details' in record ? record.details : record) || fallback);
  }
  return jsonResult(result ?? fallback);
}
