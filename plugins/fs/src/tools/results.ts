import type { ToolInvokeResult } from '../../../../protocol/index.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';
import { explainWorkspaceError } from '../../../../sdk/fs-bridge/index.js';

/** What a handler needs; tests pass an in-process workspace, the SDK passes the full ToolContext. */
export type FsToolContext = Pick<ToolContext, 'workspace' | 'signal'> & Partial<Pick<ToolContext, 'progress'>>;

/** Codes the fs tools add to the workspace codes for their own refusals. */
export type FsToolErrorCode =
  | 'BINARY_FILE'
  | 'NO_MATCH'
  | 'AMBIGUOUS_MATCH'
  | 'NO_CHANGE'
  | 'INVALID_ARGUMENT'
  | 'PATCH_PARSE_ERROR'
  | 'PATCH_CONFLICT';

export function ok(text: string, details: Record<string, unknown>): ToolInvokeResult {
  return { content: [{ type: 'text', text }], details };
}

/** A refusal the model can act on: code and message, a hint, and the same data in details. */
export function fail(code: string, message: string, hint: string | undefined, details: Record<string, unknown> = {}): ToolInvokeResult {
  const text = hint === undefined ? `Error [${code}]: ${message}` : `Error [${code}]: ${message}\nHint: ${hint}`;
  return { content: [{ type: 'text', text }], details: { ...details, error: { code, message, ...(hint ? { hint } : {}) } }, isError: true };
}

/**
 * Turn a thrown workspace error into an explained result; anything else (a bug,
 * a cancellation) is rethrown so the SDK reports it as a failed call.
 */
export function failFromError(error: unknown, details: Record<string, unknown> = {}): ToolInvokeResult {
  const explained = explainWorkspaceError(error);
  if (explained === undefined) throw error;
  return fail(explained.code, explained.message, explained.hint, { ...details, ...(explained.path ? { path: explained.path } : {}) });
}

export class FsToolError extends Error {
  override readonly name = 'FsToolError';
  constructor(
    readonly code: FsToolErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Run a handler body, turning FsToolError and workspace errors into explained results. */
export async function explained(details: Record<string, unknown>, body: () => Promise<ToolInvokeResult>): Promise<ToolInvokeResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof FsToolError) return fail(error.code, error.message, error.hint, details);
    return failFromError(error, details);
  }
}
