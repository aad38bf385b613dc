import type { ShellToolContext } from './results.js';

/**
 * How often a waiting call reports progress. The kernel's call deadline is idle time, reset
 * by each report (and capped by the operator's absolute ceiling): a few seconds between
 * reports, or a third of the deadline the kernel announced when that is shorter, keeps it
 * from firing while a command is still within its own timeout.
 */
export const PROGRESS_INTERVAL_MS = 3_000;
const MIN_INTERVAL_MS = 100;

export function progressInterval(deadline: number | undefined, now = Date.now()): number {
  if (deadline === undefined) return PROGRESS_INTERVAL_MS;
  return Math.max(MIN_INTERVAL_MS, Math.min(PROGRESS_INTERVAL_MS, Math.floor((deadline - now) / 3)));
}

/** Reports progress until the returned function is called. */
export function keepAlive(ctx: ShellToolContext, message: (elapsedMs: number) => string): () => void {
  const started = Date.now();
  const timer = setInterval(() => ctx.progress?.({ message: message(Date.now() - started) }), progressInterval(ctx.call?.deadline, started));
  return () => clearInterval(timer);
}
