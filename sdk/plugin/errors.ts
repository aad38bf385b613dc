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

/**
 * A refused or failed workspace operation: the one class for it, whoever throws it
 * (`ctx.workspace.*` in a tool plugin, the host bridge and every backend, the test harness).
 * `code` is one of the protocol's WORKSPACE_ERROR_CODES so it crosses the wire unchanged
 * (as ProtocolError `data.code`, see `data`); `path` is the workspace path the caller asked
 * for, never a host path unless no workspace path exists.
 * @since 1
 */
export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
  readonly code: WorkspaceErrorCode;
  readonly path?: string;

  constructor(code: WorkspaceErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
  }

  /** The ProtocolError data it travels as (wire code `ProtocolErrorCodes.WorkspaceError`). */
  get data(): ProtocolErrorData {
    return { code: this.code, path: this.path };
  }

  /** The plain shape for logs and JSON. */
  toJSON(): { code: WorkspaceErrorCode; message: string; path?: string } {
    return { code: this.code, message: this.message, ...(this.path !== undefined ? { path: this.path } : {}) };
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
