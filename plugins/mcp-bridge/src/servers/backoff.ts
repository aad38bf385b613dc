/** Reconnect delays: 0.5 s doubling to 30 s; after `maxAttempts` failures in a row, stop retrying on our own. */
export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 30_000;
export const RECONNECT_MAX_ATTEMPTS = 6;

export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, failures - 1));
}
