/** Codes of `KernelUsageError`: the embedding API was used out of order or with bad arguments. */
export type KernelUsageErrorCode =
  /** `assembleTools` before `start()` resolved: the list would be partial. */
  | 'KERNEL_NOT_STARTED'
  /** `start`, `assembleTools` or a tool set's `execute` after `stop()`. */
  | 'KERNEL_STOPPED'
  /** A `runId` reused for another agent or session: runs never share loop history or approvals. */
  | 'RUN_CONFLICT'
  /** `execute` with a name that is not a string, or options that are not what they claim. */
  | 'INVALID_CALL';

/**
 * Misuse of the embedding API, thrown (everything a model or a plugin can cause is a result
 * instead, see `CallResult`).
 */
export class KernelUsageError extends Error {
  override readonly name = 'KernelUsageError';
  constructor(
    readonly code: KernelUsageErrorCode,
    message: string,
  ) {
    super(message);
  }
}
