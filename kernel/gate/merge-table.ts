import { stableStringify } from '../shared/stable-stringify.js';
import { deepFreeze, detachedCopy, mergeParams } from './params.js';
import type { ApprovalRequest, BeforeToolCallResult } from './types.js';

/** The running verdict while handlers answer one after another. */
export interface MergedDecision {
  block: boolean;
  blockReason?: string;
  /** Accumulated param overrides (shallow), relative to the params the stage started with. */
  params?: Record<string, unknown>;
  /** The first approval request, stamped with the plugin that asked. */
  requireApproval?: ApprovalRequest;
  /** Effective params frozen when the first approval was requested: what the operator reviews. */
  approvalSnapshot?: Readonly<Record<string, unknown>>;
}

/** What a rule sees: the verdict so far, the new answer, who gave it, and the partly merged row. */
export interface MergeContext {
  acc: MergedDecision;
  next: BeforeToolCallResult;
  sourceId: string;
  baseParams: Record<string, unknown>;
  merged: Partial<MergedDecision>;
}

type Rule = (ctx: MergeContext) => unknown;

/** The rule kinds, each written once. */
export const MERGE_RULES = {
  /** Once true, true forever: a later `block: false` cannot unblock. */
  stickyTrue: ({ acc, next }) => acc.block || next.block === true,
  /** The newest defined value. */
  lastDefined: ({ acc, next }) => next.blockReason ?? acc.blockReason,
  /**
   * The first request is kept and stamped with the plugin that registered the handler; a
   * `pluginId` in the answer is ignored, so no hook can ask in another plugin's name.
   */
  firstApprovalWins: ({ acc, next, sourceId }) =>
    acc.requireApproval ?? (next.requireApproval && { ...next.requireApproval, pluginId: sourceId }),
  /** Overrides accumulate shallowly, until an approval freezes them. */
  shallowMergeUntilApproval: ({ acc, next }) =>
    acc.requireApproval || !next.params ? acc.params : { ...acc.params, ...next.params },
  /** Taken once, at the first approval request, as a detached deep-frozen copy. */
  snapshotAtFirstApproval: ({ acc, next, baseParams, merged }) => {
    if (acc.approvalSnapshot || !next.requireApproval) return acc.approvalSnapshot;
    return deepFreeze(detachedCopy(mergeParams(baseParams, merged.params)));
  },
} satisfies Record<string, Rule>;

/** One row of the table: a field of the verdict and the rule that merges it. */
export interface MergeRow {
  field: keyof MergedDecision;
  rule: keyof typeof MERGE_RULES;
  /** When true, a truthy merged value ends the chain (remaining handlers are skipped). */
  stopsChain?: boolean;
  why: string;
}

/**
 * The before-call merge table (SPEC §3.2). Rows run top to bottom for each handler's
 * answer; order matters only in that the snapshot row reads the params row's output.
 */
export const BEFORE_CALL_MERGE_TABLE: readonly MergeRow[] = Object.freeze([
  { field: 'block', rule: 'stickyTrue', stopsChain: true, why: 'a block is final: nothing later unblocks' },
  { field: 'blockReason', rule: 'lastDefined', why: 'the reason shown is the most recent one given' },
  { field: 'requireApproval', rule: 'firstApprovalWins', why: 'the operator reviews one request, the first' },
  { field: 'params', rule: 'shallowMergeUntilApproval', why: 'after an approval request, params are frozen' },
  { field: 'approvalSnapshot', rule: 'snapshotAtFirstApproval', why: 'approval covers one detached snapshot' },
]);

/** Rules applied once a stage is over, not per handler. */
export const AFTER_STAGE_RULES = Object.freeze([
  {
    rule: 'paramsChangedAfterTrustedApproval',
    why: 'a trusted approval covers the params it saw; hooks that change them must ask for their own approval',
  },
  { rule: 'shallowMergeOverCurrent', why: 'the merged overrides are applied over the call params, shallowly' },
]);

/** The verdict before any handler answered. */
export function emptyDecision(): MergedDecision {
  return { block: false };
}

/** Fold one handler's answer into the verdict using the table. */
export function mergeDecision(acc: MergedDecision, next: BeforeToolCallResult, sourceId: string, baseParams: Record<string, unknown>): MergedDecision {
  // A blocked verdict is final as a whole: not even its reason changes.
  if (acc.block) return acc;
  const merged: Partial<MergedDecision> = {};
  const ctx: MergeContext = { acc, next, sourceId, baseParams, merged };
  for (const row of BEFORE_CALL_MERGE_TABLE) {
    const value = MERGE_RULES[row.rule](ctx);
    if (value !== undefined) (merged as Record<string, unknown>)[row.field] = value;
  }
  return merged as MergedDecision;
}

/** True when the verdict ends the chain per the table's `stopsChain` rows. */
export function stopsChain(decision: MergedDecision): boolean {
  return BEFORE_CALL_MERGE_TABLE.some((row) => row.stopsChain && Boolean(decision[row.field]));
}

/** Did the overrides change the effective params? (Compared by stable content, not identity.) */
export function changesParams(base: Record<string, unknown>, overrides: Record<string, unknown> | undefined): boolean {
  return overrides !== undefined && stableStringify(mergeParams(base, overrides)) !== stableStringify(base);
}
