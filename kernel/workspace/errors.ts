import type { WorkspaceErrorCode } from '../../protocol/v1/workspace-types.js';

/**
 * A workspace request the kernel refuses before any backend sees it. `workspaceCode`
 * travels to the plugin as the WorkspaceError `data.code`.
 */
export class WorkspaceRoutingError extends Error {
  override readonly name = 'WorkspaceRoutingError';
  constructor(
    readonly workspaceCode: WorkspaceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
