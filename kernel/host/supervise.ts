import type { RestartPolicy } from './config.js';

/**
 * Crash bookkeeping for one plugin: crashes inside the sliding window, and the backoff before the
 * next restart (exponential, capped). Pure, so the policy is unit-testable with a fake clock.
 */
export class CrashWindow {
  private readonly times: number[] = [];

  constructor(private readonly policy: RestartPolicy) {}

  /** Records a crash at `now`; returns true when the plugin must be marked failed. */
  record(now: number): boolean {
    this.times.push(now);
    while (this.times.length > 0 && now - this.times[0]! > this.policy.windowMs) this.times.shift();
    return this.times.length >= this.policy.maxCrashes;
  }

  /** Crashes inside the window. */
  get count(): number {
    return this.times.length;
  }

  /** Delay before restart number `attempt` (1-based). */
  backoffMs(attempt: number): number {
    return Math.min(this.policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1), this.policy.backoffMaxMs);
  }

  reset(): void {
    this.times.length = 0;
  }
}

/** Errors that restarting cannot fix: the plugin is marked failed at once. */
export const PERMANENT_START_ERRORS = new Set(['VERSION_MISMATCH', 'HANDSHAKE_FAILED', 'SPAWN_FAILED', 'INVALID_MANIFEST', 'PLUGIN_LOCATION_REFUSED']);
