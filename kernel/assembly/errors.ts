export type RunContextErrorCode = 'UNKNOWN_AGENT' | 'MEMORY_WRITE_PATH_REQUIRED' | 'MEMORY_WRITE_PATH_INVALID';

/** A run context the config cannot serve, named with what is known instead. */
export class RunContextError extends Error {
  override readonly name = 'RunContextError';
  constructor(
    readonly code: RunContextErrorCode,
    message: string,
  ) {
    super(message);
  }
}
