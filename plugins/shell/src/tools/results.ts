import type { ToolContext } from '../../../../sdk/plugin-api.js';

// Shared with every tool family: one wording of success and refusal across plugins.
export { okResult as ok, errorResult as fail, workspaceErrorResult as failFromError } from '../../../../sdk/tool-results.js';

/** What a handler needs; tests pass an in-process workspace, the SDK passes the full ToolContext. */
export type ShellToolContext = Pick<ToolContext, 'workspace' | 'signal'> & Partial<Pick<ToolContext, 'progress' | 'call'>>;
