import type { ShellToolContext } from './results.js';

/**
 * How often a waiting call reports progress. The kernel's call deadline is idle time, reset
 * by each report (and capped by the operator's absolute ceiling), so a few seconds between
 * reports keeps any sane deadline from firing while a command is still within its own timeout.
 */
export const PROGRESS_INTERVAL_MS = 3_000;

/** Reports progress until the returned function is called. */
export function keepAlive(ctx: ShellToolContext, message: (elapsedMs: number) => string): () => void {
  const started = Date.now();
  const timer = setInterval(() => ctx.progress?.({ message: message(Date.now() - started) }), PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}
