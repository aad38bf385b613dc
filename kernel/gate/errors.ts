/** Why a call failed in the call path (local to the kernel; never crosses the wire as-is). */
export type CallPathErrorCode =
  | 'POLICY_HOOK_FAILED'
  | 'APPROVAL_UNAVAILABLE'
  | 'APPROVAL_DENIED'
  | 'APPROVAL_TIMED_OUT'
  | 'APPROVAL_CANCELLED'
  | 'APPROVAL_FAILED'
  | 'APPROVAL_VOID'
  | 'PARAMS_CHANGED_AFTER_APPROVAL'
  | 'INVALID_PARAMS';

/** Terminal disposition of a failed call, as the model-facing runtime reports it. */
export type FailureDisposition = 'blocked' | 'failed' | 'timed_out' | 'cancelled';

/** Which gate step said no (matches the reference's `deniedReason` vocabulary). */
export type DeniedReason =
  | 'plugin-before-tool-call'
  | 'plugin-approval'
  | 'plugin-approval-unavailable'
  | 'tool-loop'
  /** Params were not a JSON object (after the adapter's coercion). */
  | 'invalid-params';

/** A failure of the call path: thrown from a gated tool; the tool did not run. */
export class CallPathError extends Error {
  override readonly name = 'CallPathError';
  readonly code: CallPathErrorCode;
  readonly disposition: FailureDisposition;
  readonly deniedReason: DeniedReason;
  readonly toolName?: string;

  constructor(
    code: CallPathErrorCode,
    message: string,
    options: { cause?: unknown; disposition?: FailureDisposition; deniedReason: DeniedReason; toolName?: string },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.disposition = options.disposition ?? 'blocked';
    this.deniedReason = options.deniedReason;
    this.toolName = options.toolName;
  }
}

/** True for errors thrown by the call path (not by the tool itself). */
export function isCallPathError(error: unknown): error is CallPathError {
  return error instanceof CallPathError;
}
