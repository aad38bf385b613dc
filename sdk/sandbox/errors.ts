import type { WorkspaceErrorCode } from '../../protocol/v1/workspace-types.js';

/**
 * Codes a sandbox backend fails with. Workspace codes (from the protocol) are used for
 * per-operation refusals so the kernel can forward them unchanged; the rest describe
 * the backend itself.
 */
export type SandboxErrorCode =
  | WorkspaceErrorCode
  | 'CONFIG_INVALID'
  | 'BACKEND_UNAVAILABLE'
  | 'IMAGE_MISSING'
  | 'SELF_TEST_FAILED'
  | 'SANDBOX_GONE'
  | 'HOST_KEY_REJECTED'
  | 'AUTH_FAILED'
  | 'CANCELLED'
  | 'SYNC_FAILED'
  | 'SYNC_IN_PROGRESS'
  | 'SETUP_FAILED'
  /** The container under this sandbox's name runs another plan and was used moments ago: neither handed out nor removed. */
  | 'SANDBOX_IN_USE'
  | 'REGISTRY_CORRUPT'
  | 'IMAGE_BUILD_FAILED';

export interface SandboxErrorOptions {
  cause?: unknown;
  /** Structured detail for formatters (the bind, the path, the config key...). */
  data?: Record<string, unknown>;
}

/** The one error type of the sandbox SDK and backends: a code, a message that names the fix, a cause. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  readonly code: SandboxErrorCode;
  readonly data?: Record<string, unknown>;

  constructor(code: SandboxErrorCode, message: string, options: SandboxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
  }
}

export function isSandboxError(error: unknown, code?: SandboxErrorCode): error is SandboxError {
  return error instanceof SandboxError && (code === undefined || error.code === code);
}

/** Throws the CANCELLED error when the signal has fired; call before each round trip. */
export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) {
    throw new SandboxError('CANCELLED', `Sandbox operation cancelled: ${what}`, { cause: signal.reason });
  }
}
