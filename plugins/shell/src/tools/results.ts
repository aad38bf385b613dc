import type { ToolInvokeResult } from '../../../../protocol/index.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';
import { explainWorkspaceError } from '../../../../sdk/fs-bridge/index.js';

/** What a handler needs; tests pass an in-process workspace, the SDK passes the full ToolContext. */
export type ShellToolContext = Pick<ToolContext, 'workspace' | 'signal'> & Partial<Pick<ToolContext, 'progress' | 'call'>>;

export function ok(text: string, details: Record<string, unknown>): ToolInvokeResult {
  return { content: [{ type: 'text', text }], details };
}

export function fail(code: string, message: string, hint: string | undefined, details: Record<string, unknown> = {}): ToolInvokeResult {
  const text = hint === undefined ? `Error [${code}]: ${message}` : `Error [${code}]: ${message}\nHint: ${hint}`;
  return { content: [{ type: 'text', text }], details: { ...details, error: { code, message, ...(hint ? { hint } : {}) } }, isError: true };
}

/** A workspace refusal becomes an explained result; anything else is rethrown (the SDK reports it). */
export function failFromError(error: unknown, details: Record<string, unknown> = {}): ToolInvokeResult {
  const why = explainWorkspaceError(error);
  if (why === undefined) throw error;
  return fail(why.code, why.message, why.hint, { ...details, ...(why.path ? { path: why.path } : {}) });
}
