import { mergeParams, detachedCopy } from './params.js';
import { readHandlerResult } from './hook-result.js';
import { emptyDecision, mergeDecision, stopsChain, type MergedDecision } from './merge-table.js';
import { withTimeout } from './with-timeout.js';
import type { BeforeToolCallEvent, BeforeToolCallResult, RunContext } from './types.js';

/** One handler in a chain, already adapted from a hook or a trusted policy. */
export interface ChainHandler {
  /** Plugin id (hooks) or policy id (trusted policies); stamped on approval requests. */
  sourceId: string;
  /** Human label used in error messages, e.g. `before_tool_call hook of plugin "x"`. */
  label: string;
  timeoutMs: number;
  /** The code a block by this handler carries (`HOOK_BLOCKED` for plugin hooks). */
  blockCode: string;
  invoke(event: BeforeToolCallEvent, run: RunContext): unknown;
  /** Turns the raw (validated) answer into merge input; trusted policies map `allow:false`. */
  adapt?(result: BeforeToolCallResult & { allow?: boolean }): BeforeToolCallResult;
}

/** Raised when a handler throws, times out or answers garbage; `cause` holds the original. */
export class HandlerFailedError extends Error {
  override readonly name = 'HandlerFailedError';
  constructor(readonly handler: ChainHandler, cause: unknown) {
    super(`${handler.label} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Run handlers sequentially and fold their answers with the merge table. Each handler gets
 * its own deep copy of the event carrying the params as they stand after earlier handlers
 * (or the frozen approval snapshot), so nothing it mutates leaks to the caller or to others.
 */
export async function runHandlerChain(
  handlers: readonly ChainHandler[],
  eventBase: Omit<BeforeToolCallEvent, 'params'>,
  baseParams: Record<string, unknown>,
  run: RunContext,
): Promise<MergedDecision & { blockCode?: string; blockedBy?: string }> {
  let decision = emptyDecision();
  for (const handler of handlers) {
    const current = decision.approvalSnapshot ?? mergeParams(baseParams, decision.params);
    const event = detachedCopy({ ...eventBase, params: current });
    let answer: BeforeToolCallResult | undefined;
    try {
      const raw = await withTimeout(handler.label, handler.timeoutMs, () => handler.invoke(event, run));
      const read = readHandlerResult(raw, handler.label);
      answer = read && handler.adapt ? handler.adapt(read) : read;
    } catch (error) {
      throw new HandlerFailedError(handler, error);
    }
    if (!answer) continue;
    decision = mergeDecision(decision, answer, handler.sourceId, baseParams);
    // Only a block ends the chain, so the handler that ended it is the one that blocked.
    if (stopsChain(decision)) return { ...decision, blockCode: handler.blockCode, blockedBy: handler.sourceId };
  }
  return decision;
}
