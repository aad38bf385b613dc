import { ProtocolErrorCodes, type NodeErrorCode, type ProtocolErrorData, type WorkspaceErrorCode } from '../../protocol/index.js';

/**
 * An error a plugin handler throws to choose the wire code and data itself.
 * Anything else a handler throws is sent as ToolFailed with its message.
 * @since 1
 */
export class PluginError extends Error {
  override readonly name: string = 'PluginError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: ProtocolErrorData,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A workspace operation failed; `code` says how (thrown by `ctx.workspace.*` and by backends). @since 1 */
export class WorkspaceError extends PluginError {
  override readonly name = 'WorkspaceError';
  constructor(
    readonly workspaceCode: WorkspaceErrorCode,
    message: string,
    options?: { path?: string; cause?: unknown },
  ) {
    super(ProtocolErrorCodes.WorkspaceError, message, { code: workspaceCode, path: options?.path }, options);
  }
}

/** The call was cancelled (the kernel sent `$/cancelRequest`). @since 1 */
export class CancelledError extends PluginError {
  override readonly name = 'CancelledError';
  constructor(message = 'the request was cancelled') {
    super(ProtocolErrorCodes.RequestCancelled, message);
  }
}

/** A node command failed; `NODE_DISCONNECTED` when the device went away mid-command. @since 1 */
export class NodeError extends PluginError {
  override readonly name = 'NodeError';
  constructor(
    readonly nodeCode: NodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(ProtocolErrorCodes.ToolFailed, message, { detail: { node: nodeCode } }, options);
  }
}
