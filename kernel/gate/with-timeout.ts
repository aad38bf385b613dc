/** Raised when a handler does not settle in time. */
export class HandlerTimeoutError extends Error {
  override readonly name = 'HandlerTimeoutError';
  constructor(readonly label: string, readonly timeoutMs: number) {
    super(`${label} timed out after ${timeoutMs}ms`);
  }
}

/** Default per-handler timeout of `before_tool_call`, as in the reference. */
export const DEFAULT_HOOK_TIMEOUT_MS = 15_000;

/** A usable timeout: finite and positive, floored; anything else → the fallback. */
export function resolveTimeoutMs(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

/**
 * Run `work`, rejecting with HandlerTimeoutError after `timeoutMs`. A synchronous throw
 * becomes a rejection, so callers handle one failure channel. The timer never outlives the race.
 */
export async function withTimeout<T>(label: string, timeoutMs: number, work: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeoutError(label, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
