import type { ToolInvokeResult } from '../../../../protocol/index.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';
import type { JournalStore } from '../journal/store.js';
import { errorResult as fail, workspaceErrorResult as failFromError } from '../../../../sdk/tool-results.js';

// Shared with every tool family: one wording of success and refusal across plugins.
export { okResult as ok, errorResult as fail, workspaceErrorResult as failFromError } from '../../../../sdk/tool-results.js';

/** What a handler needs; tests pass an in-process workspace, the SDK passes the full ToolContext. */
export type FsToolContext = Pick<ToolContext, 'workspace' | 'signal'> &
  Partial<Pick<ToolContext, 'progress'>> & {
    call?: { sessionKey?: string };
    /** Where multi-file patches keep their journal (default: the plugin's data directory). */
    journals?: JournalStore;
  };

/** Codes the fs tools add to the workspace codes for their own refusals. */
export type FsToolErrorCode =
  | 'BINARY_FILE'
  | 'NOT_UTF8'
  | 'READ_ONLY_FILE'
  | 'NO_MATCH'
  | 'AMBIGUOUS_MATCH'
  | 'NO_CHANGE'
  | 'INVALID_ARGUMENT'
  | 'PATCH_PARSE_ERROR'
  | 'PATCH_CONFLICT'
  | 'JOURNAL_UNAVAILABLE';

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
