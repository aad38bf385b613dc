/**
 * Effective deadlines: the operator's timeouts bound everything a plugin declares. A tool's or
 * hook's own `timeoutMs` can only shorten the operator's value, never lengthen it, and no call
 * outlives `maxCallMs`, whatever progress it reports.
 */
import { HOOK_TABLE, type HookName } from '../../protocol/index.js';
import type { PluginTimeouts } from './config.js';

const smallest = (...values: Array<number | undefined>): number => Math.min(...values.filter((v): v is number => v !== undefined));

/**
 * A tool call: idle deadline (reset by each `$/progress`) and absolute ceiling. `requested` comes
 * from the kernel's caller (trusted; may be longer than `callMs`, never than `maxCallMs`).
 */
export function toolDeadline(timeouts: PluginTimeouts, declared: number | undefined, requested: number | undefined): { idleMs: number; maxTotalMs: number } {
  const idleMs = requested !== undefined ? Math.min(requested, timeouts.maxCallMs) : smallest(declared, timeouts.callMs, timeouts.maxCallMs);
  return { idleMs, maxTotalMs: timeouts.maxCallMs };
}

/** A hook call: at most `hookMs` (an observer at most the larger of `hookMs` and its table default). */
export function hookDeadline(timeouts: PluginTimeouts, hook: HookName, declared: number | undefined, requested: number | undefined): number {
  const ceiling = hook === 'before_tool_call' ? timeouts.hookMs : Math.max(timeouts.hookMs, HOOK_TABLE[hook].defaultTimeoutMs);
  return smallest(declared, requested, ceiling);
}

/** A sandbox-backend or skills request: the caller's deadline or `callMs`, never past `maxCallMs`. */
export function requestDeadline(timeouts: PluginTimeouts, requested: number | undefined): number {
  return Math.min(requested ?? timeouts.callMs, timeouts.maxCallMs);
}
