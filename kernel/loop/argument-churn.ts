import type { LoopHistoryRecord } from './history.js';

/** Calls one argument variant needs, all with the same outcome, before it counts as stable. */
export const MIN_STABLE_CALLS_PER_VARIANT = 3;

/** The churn at the end of the window: how many calls, over how many stable argument variants. */
export interface ArgumentChurn {
  count: number;
  variantCount: number;
}

const NONE: ArgumentChurn = { count: 0, variantCount: 0 };

/**
 * Argument churn (the reference release's detector, 2026.9.6): the newest calls are all of
 * this tool and all made no progress (they failed, or a `write` changed nothing), while the
 * model keeps changing the arguments. It counts when at least two variants each got one
 * stable outcome at least three times, every variant seen is stable, they all share that one
 * outcome, and the call about to run is one of them.
 */
export function argumentChurnStreak(history: readonly LoopHistoryRecord[], toolName: string, currentArgsHash: string): ArgumentChurn {
  const variants = new Map<string, { resultHash: string; count: number }>();
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const record = history[i];
    if (record.toolName !== toolName) break;
    if (!record.resultHash) continue; // still running
    if (record.noProgress !== true) break;
    const seen = variants.get(record.argsHash);
    if (seen && seen.resultHash !== record.resultHash) break;
    variants.set(record.argsHash, { resultHash: record.resultHash, count: (seen?.count ?? 0) + 1 });
  }
  // Churn needs two variants; most calls end on the first record (the common no-churn case).
  if (variants.size < 2) return NONE;
  const all = [...variants.values()];
  const count = all.reduce((sum, variant) => sum + variant.count, 0);
  const stable = all.filter((variant) => variant.count >= MIN_STABLE_CALLS_PER_VARIANT);
  const onlyStable = stable.reduce((sum, variant) => sum + variant.count, 0) === count;
  const oneOutcome = new Set(stable.map((variant) => variant.resultHash)).size === 1;
  const current = variants.get(currentArgsHash)?.count ?? 0;
  return stable.length > 1 && onlyStable && oneOutcome && current >= MIN_STABLE_CALLS_PER_VARIANT ? { count, variantCount: stable.length } : NONE;
}
