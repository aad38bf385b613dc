import type { ToolInvokeResult } from '../../../../protocol/index.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';

// Shared with every tool family: one wording of success and refusal across plugins.
export { okResult as ok, errorResult as fail, workspaceErrorResult as failFromError } from '../../../../sdk/tool-results.js';

/** What a handler needs; tests pass an in-process workspace, the SDK passes the full ToolContext. */
export type ShellToolContext = Pick<ToolContext, 'workspace' | 'signal'> & Partial<Pick<ToolContext, 'progress' | 'call'>>;

/** A failed command: everything it printed, then the classification's hint; `details.error` carries the code. */
export function failedWithOutput(text: string, details: Record<string, unknown>, failure: { code: string; message: string; hint: string }): ToolInvokeResult {
  return { content: [{ type: 'text', text: `${text}\nHint: ${failure.hint}` }], details: { ...details, error: failure }, isError: true };
}
