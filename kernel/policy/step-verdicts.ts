/**
 * A step's verdict on each tool of one surface, by the tool's index in that surface: a byte per
 * tool, filled the first time the pipeline asks about that tool. A step plan is cached per
 * (frozen policy, frozen surface), so its verdicts are too: a new run shape that only adds a
 * layer (a runtime allowlist, say) re-runs its other layers as array reads, not as one name
 * look-up per tool per layer. That look-up was the superlinear part of assembly: the matchers'
 * name memos are bounded (2,048) below a large surface, so at 20,000 tools every layer missed
 * them and decided every name afresh, through hash tables too big for the CPU caches.
 *
 * A verdict depends only on the tool's normalized name, which is why an index may stand for it.
 */
import type { StepPlan } from './step-plan.js';

export const UNDECIDED = 0;
export const KEEP = 1;
export const DROP = 2;

const verdicts = new WeakMap<StepPlan, Uint8Array>();

/**
 * The verdict bytes of `plan` over a surface of `size` tools. A plan planned afresh (unfrozen
 * input) is a new object, so it never finds another surface's verdicts.
 */
export function stepVerdicts(plan: StepPlan, size: number): Uint8Array {
  let bytes = verdicts.get(plan);
  if (!bytes || bytes.length !== size) verdicts.set(plan, (bytes = new Uint8Array(size)));
  return bytes;
}
