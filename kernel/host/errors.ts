import { ConnectionError, ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import { ProtocolErrorCodes, type ProtocolErrorData } from '../../protocol/index.js';
import { escapeForTerminal } from './escape.js';

/** Codes of errors the plugin host raises locally (never sent on the wire). */
export const KERNEL_ERROR_CODES = [
  'PLUGIN_CRASHED',
  'PLUGIN_TIMEOUT',
  'PLUGIN_UNRESPONSIVE',
  'PLUGIN_LOCATION_REFUSED',
  'CONFINEMENT_UNAVAILABLE',
  'CONFINEMENT_REFUSED',
  'CONFINEMENT_DENIED',
  'HANDSHAKE_FAILED',
  'VERSION_MISMATCH',
  'CAPABILITY_NOT_SUPPORTED',
  'PLUGIN_FAILED',
  'PLUGIN_NOT_FOUND',
  'PLUGIN_NOT_READY',
  'PLUGIN_STOPPED',
  'MESSAGE_TOO_LARGE',
  'FRAMING_ERROR',
  'SPAWN_FAILED',
  'INVALID_CONFIG',
  'INVALID_MANIFEST',
  'INVALID_RESULT',
  'CANCELLED',
  'TOOL_NOT_FOUND',
  'TOOL_FAILED',
  'WORKSPACE_ERROR',
  'PLUGIN_ERROR',
] as const;
export type KernelErrorCode = (typeof KERNEL_ERROR_CODES)[number];

/** A typed error of the plugin host. `data` carries the wire error's data when there was one. */
export class KernelError extends Error {
  override readonly name = 'KernelError';
  readonly code: KernelErrorCode;
  readonly pluginId?: string;
  readonly data?: ProtocolErrorData;
  /** The wire code when the error came from the plugin. */
  readonly protocolCode?: number;
  /** A start failure that a restart may fix (e.g. a handshake timeout), even if its code is usually permanent. */
  readonly retryable?: boolean;

  constructor(
    code: KernelErrorCode,
    message: string,
    options: { pluginId?: string; cause?: unknown; data?: ProtocolErrorData; protocolCode?: number; retryable?: boolean } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.pluginId = options.pluginId;
    this.data = options.data;
    this.protocolCode = options.protocolCode;
    this.retryable = options.retryable;
  }
}

export function isKernelError(error: unknown, code?: KernelErrorCode): error is KernelError {
  return error instanceof KernelError && (code === undefined || error.code === code);
}

const BY_PROTOCOL_CODE: Record<number, KernelErrorCode> = {
  [ProtocolErrorCodes.MessageTooLarge]: 'MESSAGE_TOO_LARGE',
  [ProtocolErrorCodes.VersionMismatch]: 'VERSION_MISMATCH',
  [ProtocolErrorCodes.HandshakeFailed]: 'HANDSHAKE_FAILED',
  [ProtocolErrorCodes.CapabilityMissing]: 'CAPABILITY_NOT_SUPPORTED',
  [ProtocolErrorCodes.PluginNotReady]: 'PLUGIN_NOT_READY',
  [ProtocolErrorCodes.WorkspaceError]: 'WORKSPACE_ERROR',
  [ProtocolErrorCodes.ToolFailed]: 'TOOL_FAILED',
  [ProtocolErrorCodes.ToolNotFound]: 'TOOL_NOT_FOUND',
  [ProtocolErrorCodes.RequestCancelled]: 'CANCELLED',
  [ProtocolErrorCodes.ConfinementDenied]: 'CONFINEMENT_DENIED',
  [ProtocolErrorCodes.DeadlineExceeded]: 'PLUGIN_TIMEOUT',
  // vscode-jsonrpc rejects pending requests this way when the pipe closes: the plugin is gone.
  [ErrorCodes.PendingResponseRejected]: 'PLUGIN_CRASHED',
  [ErrorCodes.ConnectionInactive]: 'PLUGIN_CRASHED',
  // ...and this way when writing the request failed (EPIPE: the plugin closed its end, it is dying).
  [ErrorCodes.MessageWriteError]: 'PLUGIN_CRASHED',
};

/** Longest piece of a plugin's own error text kept in a kernel error. */
const MAX_PLUGIN_MESSAGE_CHARS = 2_000;

/** Maps whatever a request rejected with to a KernelError naming the plugin. */
export function toKernelError(error: unknown, pluginId: string, what: string): KernelError {
  if (error instanceof KernelError) return error;
  if (error instanceof ResponseError) {
    // vscode-jsonrpc reports a refused write as MessageWriteError; our writer marks size refusals.
    if (typeof error.message === 'string' && error.message.startsWith('MessageTooLarge:')) {
      return new KernelError('MESSAGE_TOO_LARGE', `${what}: ${error.message}`, { pluginId, cause: error });
    }
    if (typeof error.message === 'string' && error.message.startsWith('Unserializable:')) {
      return new KernelError('PLUGIN_ERROR', `${what}: ${error.message}`, { pluginId, cause: error });
    }
    const code = BY_PROTOCOL_CODE[error.code] ?? 'PLUGIN_ERROR';
    if (code === 'PLUGIN_CRASHED') {
      return new KernelError(code, `${what}: the RPC channel to plugin "${pluginId}" is broken (${escapeForTerminal(error.message, { maxChars: 200 })}); the plugin is dying`, { pluginId, cause: error });
    }
    const text = escapeForTerminal(error.message, { maxChars: MAX_PLUGIN_MESSAGE_CHARS });
    return new KernelError(code, `${what}: plugin "${pluginId}" answered with an error: ${text}`, {
      pluginId,
      cause: error,
      data: error.data as ProtocolErrorData | undefined,
      protocolCode: error.code,
    });
  }
  if (error instanceof ConnectionError) {
    return new KernelError('PLUGIN_CRASHED', `${what}: the RPC channel to plugin "${pluginId}" is closed (${error.message}); the plugin is dying`, { pluginId, cause: error });
  }
  const message = escapeForTerminal(error instanceof Error ? error.message : String(error), { maxChars: MAX_PLUGIN_MESSAGE_CHARS });
  // Often the RPC library's words about a malformed answer ("neither a result nor an error"): say whose.
  const named = message.includes(`plugin "${pluginId}"`) ? message : `plugin "${pluginId}": ${message}`;
  return new KernelError('PLUGIN_ERROR', `${what}: ${named}`, { pluginId, cause: error });
}

/** A schema failure of something a plugin sent, as one escaped line: `path: message; ...`. */
export function describeIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  const text = error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
  return escapeForTerminal(text, { maxChars: 1_000 });
}
