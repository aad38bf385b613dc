import { MAX_TIMER_DELAY_MS, MIN_REFIRE_GAP_MS } from './constants.js';

/**
 * How long the scheduler sleeps: until the earliest due job, but a past-due wake (delay 0,
 * e.g. a slot held by a running job) waits the refire gap instead of spinning, and no sleep
 * is longer than the maximum (the timer wakes at least once a minute). With no due time but
 * enabled jobs, a maintenance recheck; with no jobs at all, no timer.
 */
export function timerDelay(nextWakeAt: number | undefined, now: number, hasEnabledJobs: boolean): number | undefined {
  if (nextWakeAt === undefined) return hasEnabledJobs ? MAX_TIMER_DELAY_MS : undefined;
  const delay = Math.max(nextWakeAt - now, 0);
  return Math.min(delay === 0 ? MIN_REFIRE_GAP_MS : delay, MAX_TIMER_DELAY_MS);
}

/** The slot after a run that started at `now`: never within the refire gap. */
export function slotAfterRun(next: (after: number) => number | undefined, everyMs: number | undefined, now: number): number | undefined {
  if (everyMs !== undefined) return now + everyMs;
  return next(now + MIN_REFIRE_GAP_MS - 1);
}
