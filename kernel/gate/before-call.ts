import { requestApproval, isGranted, type ApprovalAsk } from './approvals.js';
import type { ApprovalSurface } from './approval-surface.js';
import { CallPathError } from './errors.js';
import { HandlerFailedError, runHandlerChain, type ChainHandler } from './handler-chain.js';
import { changesParams, type MergedDecision } from './merge-table.js';
import * as text from './messages.js';
import type { GateOutcome, GrantedApproval } from './outcome.js';
import { mergeParams } from './params.js';
import type { GateRunState, LoopVerdict } from './run-state.js';
import type { BeforeToolCallEvent, CallPathLogger, KernelTool, RunContext } from './types.js';

/** Inputs of one before-call evaluation. */
export interface BeforeCallInput {
  tool: KernelTool;
  toolName: string;
  toolCallId: string;
  params: Record<string, unknown>;
  /** `hashToolCall(toolName, params)` when loop detection is on (hashed once per call). */
  argsHash?: string;
  run: RunContext;
  /** The session's sandbox profile, read when an approval is bound. */
  sandboxProfile: unknown;
  trusted: readonly ChainHandler[];
  hooks: readonly ChainHandler[];
  /** The run's loop history, logged warnings and allow-always approvals. */
  state: GateRunState;
  approvalSurface?: ApprovalSurface;
  logger: CallPathLogger;
  /** Told about each loop verdict that is not "fine" (diagnostics). */
  onLoopVerdict?: (verdict: LoopVerdict) => void;
  /** Told when an approval is asked for and when it is answered (diagnostics, the audit trail). */
  onApproval?: ApprovalAsk['onEvent'];
  signal?: AbortSignal;
}

/**
 * The gate, in order: loop detection → trusted policies → plugin hooks → param merge.
 * (Name normalization happened before; the caller passes the normalized name.)
 * Every thrown error is a failure: the tool never runs on an unanswered question.
 */
export async function evaluateBeforeCall(input: BeforeCallInput): Promise<GateOutcome> {
  const loopWarning = checkLoop(input);
  if (typeof loopWarning === 'object') return loopWarning;
  if (input.trusted.length === 0 && input.hooks.length === 0) return allowedAsIs(input, loopWarning);
  try {
    return await runStages(input, loopWarning);
  } catch (error) {
    const cause = error instanceof HandlerFailedError ? error.message : String(error);
    input.logger.error(text.hookFailedLogLine(input.toolName, input.toolCallId, cause));
    return {
      kind: 'failure',
      error: new CallPathError('POLICY_HOOK_FAILED', text.HOOK_FAILED, {
        cause: error instanceof HandlerFailedError ? error.cause : error,
        deniedReason: 'plugin-before-tool-call', disposition: 'failed', toolName: input.toolName,
      }),
    };
  }
}

/** What a before-call evaluation without trusted policies or hooks reads. */
export type UnhookedCallInput = Pick<BeforeCallInput, 'toolName' | 'toolCallId' | 'params' | 'argsHash' | 'state' | 'logger' | 'onLoopVerdict'>;

/**
 * `evaluateBeforeCall` for a gate with no trusted policy and no hook: loop detection alone,
 * decided synchronously, so the call path does not wait on a promise that has nothing to wait for.
 */
export function evaluateUnhookedCall(input: UnhookedCallInput): GateOutcome {
  const loopWarning = checkLoop(input);
  return typeof loopWarning === 'object' ? loopWarning : allowedAsIs(input, loopWarning);
}

function allowedAsIs(input: UnhookedCallInput, loopWarning: string | undefined): GateOutcome {
  return { kind: 'allowed', params: input.params, rewritten: false, approvals: [], loopWarning };
}

/** Critical → veto outcome; warning → its message (logged once per key); else undefined. */
function checkLoop(input: UnhookedCallInput): GateOutcome | string | undefined {
  const { loop, warnedLoopKeys } = input.state;
  if (!loop?.config.enabled) return undefined;
  const verdict = loop.check(input.toolName, input.params, input.argsHash);
  if (verdict.stuck) input.onLoopVerdict?.(verdict);
  if (verdict.stuck && verdict.level === 'critical') {
    return { kind: 'veto', code: 'LOOP_DETECTED', deniedReason: 'tool-loop', reason: verdict.message };
  }
  loop.recordCall(input.toolName, input.params, input.toolCallId, input.argsHash);
  if (!verdict.stuck) return undefined;
  if (!warnedLoopKeys.has(verdict.warningKey)) {
    warnedLoopKeys.add(verdict.warningKey);
    input.logger.warn(`loop detection (${verdict.detector}): ${verdict.message}`);
  }
  return verdict.message;
}

async function runStages(input: BeforeCallInput, loopWarning: string | undefined): Promise<GateOutcome> {
  const eventBase: Omit<BeforeToolCallEvent, 'params'> = {
    toolName: input.toolName, toolCallId: input.toolCallId, pluginId: input.tool.pluginId,
    runId: input.run.runId, sessionKey: input.run.sessionKey, agentId: input.run.agentId, trigger: input.run.trigger,
  };
  const approvals: GrantedApproval[] = [];
  let params = input.params;

  const trusted = await runHandlerChain(input.trusted, eventBase, params, input.run);
  if (trusted.block) return veto(trusted, text.BLOCKED_BY_TRUSTED_POLICY);
  params = trusted.approvalSnapshot ?? mergeParams(params, trusted.params);
  if (trusted.requireApproval) {
    const granted = await ask(input, trusted, params);
    if (!isGranted(granted)) return granted;
    approvals.push(granted);
  }

  if (input.hooks.length > 0) {
    const hooked = await runHandlerChain(input.hooks, eventBase, params, input.run);
    if (hooked.block) return veto(hooked, text.BLOCKED_BY_HOOK);
    if (approvals.length > 0 && !hooked.requireApproval && changesParams(params, hooked.params)) {
      return {
        kind: 'failure',
        error: new CallPathError('PARAMS_CHANGED_AFTER_APPROVAL', text.PARAMS_CHANGED_AFTER_TRUSTED_APPROVAL, {
          deniedReason: 'plugin-approval', disposition: 'blocked', toolName: input.toolName,
        }),
      };
    }
    params = hooked.approvalSnapshot ?? mergeParams(params, hooked.params);
    if (hooked.requireApproval) {
      const granted = await ask(input, hooked, params);
      if (!isGranted(granted)) return granted;
      approvals.push(granted);
    }
  }
  const rewritten = changesParams(input.params, params);
  return { kind: 'allowed', params: rewritten ? params : input.params, rewritten, approvals, loopWarning };
}

function veto(decision: MergedDecision & { blockCode?: string; blockedBy?: string }, fallback: string): GateOutcome {
  return { kind: 'veto', code: decision.blockCode ?? 'HOOK_BLOCKED', deniedReason: 'plugin-before-tool-call', reason: decision.blockReason?.trim() || fallback, blockedBy: decision.blockedBy };
}

function ask(input: BeforeCallInput, decision: MergedDecision, snapshot: Record<string, unknown>) {
  return requestApproval({
    request: decision.requireApproval!, snapshot, tool: input.tool, toolName: input.toolName,
    toolCallId: input.toolCallId, run: input.run, sandboxProfile: input.sandboxProfile, surface: input.approvalSurface,
    remembered: input.state.rememberedApprovals, signal: input.signal, onEvent: input.onApproval,
  });
}
