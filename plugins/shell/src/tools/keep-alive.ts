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

export interface KeepAlive {
  stop(): void;
  /** Another report of the call was just sent (output so far): a "still running" right after it is noise. */
  reported(): void;
}

/**
 * Reports progress until stopped. A tick within half an interval of another report is skipped, so
 * while output streams the client hears only the output, and reports stay at most one and a half
 * intervals apart (the deadline is at least three).
 */
export function keepAlive(ctx: ShellToolContext, message: (elapsedMs: number) => string): KeepAlive {
  const started = Date.now();
  const every = progressInterval(ctx.call?.deadline, started);
  let last = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - last < every / 2) return;
    last = now;
    ctx.progress?.({ message: message(now - started) });
  }, every);
  return { stop: () => clearInterval(timer), reported: () => void (last = Date.now()) };
}
