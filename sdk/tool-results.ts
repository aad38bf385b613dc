/**
 * Result builders for tool authors: a plain success, and a refusal the model can act on
 * (code, message, hint, and the same data in `details`), including one made from a
 * workspace error the kernel or a backend raised.
 */
import type { ToolInvokeResult } from '../protocol/index.js';
import { explainWorkspaceError } from './fs-bridge/index.js';

/** A text result with structured details for the host. */
export function okResult(text: string, details: Record<string, unknown>): ToolInvokeResult {
  return { content: [{ type: 'text', text }], details };
}

/** An error result: `Error [CODE]: message` plus an optional `Hint:` line; `details.error` carries the same. */
export function errorResult(code: string, message: string, hint: string | undefined, details: Record<string, unknown> = {}): ToolInvokeResult {
  const text = hint === undefined ? `Error [${code}]: ${message}` : `Error [${code}]: ${message}\nHint: ${hint}`;
  return { content: [{ type: 'text', text }], details: { ...details, error: { code, message, ...(hint ? { hint } : {}) } }, isError: true };
}

/**
 * A thrown workspace error as an explained result; anything else (a bug, a cancellation) is
 * rethrown so the SDK reports it as a failed call.
 */
export function workspaceErrorResult(error: unknown, details: Record<string, unknown> = {}): ToolInvokeResult {
  const explained = explainWorkspaceError(error);
  if (explained === undefined) throw error;
  return errorResult(explained.code, explained.message, explained.hint, { ...details, ...(explained.path ? { path: explained.path } : {}) });
}
