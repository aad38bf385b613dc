import type { DiagnosticsEmitter } from '../diagnostics/emitter.js';
import { classifyError, type DiagnosticsEvent, type DiagnosticsEventBody, type ToolExecutionEventBase } from '../diagnostics/events.js';
import type { ToolLoopDetector } from '../loop/detector.js';
import { buildAfterCallEvent, notifyObservers, type AfterToolCallObserver } from './after-call.js';
import { approvalDigest } from './approval-digest.js';
import { CallPathError } from './errors.js';
import * as text from './messages.js';
import { buildBlockedToolResult, type GateOutcome } from './outcome.js';
import { detachedCopy, isPlainObject } from './params.js';
import type { CallPathLogger, KernelTool, RunContext, ToolExecuteContext, ToolResult } from './types.js';

/** Shared state of one gate, used by every call through it. */
export interface GateRuntime {
  run: RunContext;
  logger: CallPathLogger;
  diagnostics?: DiagnosticsEmitter;
  observers: readonly AfterToolCallObserver[];
  loop?: ToolLoopDetector;
  normalize(name: unknown): string;
  evaluate(tool: KernelTool, toolName: string, params: Record<string, unknown>, toolCallId: string, signal?: AbortSignal): Promise<GateOutcome>;
}

/** The failure for params that are not a JSON object. */
export function invalidParamsOutcome(toolName: string): GateOutcome {
  return {
    kind: 'failure',
    error: new CallPathError('INVALID_PARAMS', text.INVALID_PARAMS, { deniedReason: 'invalid-params', disposition: 'failed', toolName }),
  };
}

/**
 * One call through the gate: decide → (veto | failure | re-check approvals → execute) →
 * diagnostics, loop outcome, observers. Only identifiers and timings reach diagnostics.
 */
export async function executeGated(rt: GateRuntime, tool: KernelTool, rawParams: unknown, ctx: ToolExecuteContext): Promise<ToolResult> {
  const toolName = rt.normalize(tool.name);
  const base: Omit<ToolExecutionEventBase, 'ts'> = {
    runId: rt.run.runId, sessionKey: rt.run.sessionKey, agentId: rt.run.agentId,
    toolCallId: ctx.toolCallId, toolName, pluginId: tool.pluginId,
  };
  const emit = (event: DiagnosticsEventBody) =>
    rt.diagnostics?.emit({ ...base, ts: Date.now(), ...event } as DiagnosticsEvent);
  const gateStart = performance.now();
  const outcome = isPlainObject(rawParams)
    ? await rt.evaluate(tool, toolName, rawParams, ctx.toolCallId, ctx.signal)
    : invalidParamsOutcome(toolName);

  if (outcome.kind === 'veto') {
    emit({ type: 'tool.execution.blocked', deniedReason: outcome.deniedReason, reason: outcome.reason });
    const blocked = buildBlockedToolResult(outcome.reason, outcome.deniedReason);
    rt.loop?.recordOutcome({ toolName, params: rawParams, toolCallId: ctx.toolCallId, result: blocked });
    return blocked;
  }
  const failure = outcome.kind === 'failure' ? outcome.error : approvalVoided(rt, tool, toolName, outcome);
  if (failure) {
    emit({ type: 'tool.execution.error', durationMs: performance.now() - gateStart, errorClass: classifyError(failure), stage: 'gate' });
    rt.loop?.recordOutcome({ toolName, params: rawParams, toolCallId: ctx.toolCallId, error: failure });
    throw failure;
  }
  const allowed = outcome as Extract<GateOutcome, { kind: 'allowed' }>;
  // An approved snapshot is frozen; the tool gets its own mutable copy.
  const params = allowed.approvals.length > 0 ? detachedCopy(allowed.params) : allowed.params;
  emit({ type: 'tool.execution.started' });
  const started = performance.now();
  let result: ToolResult;
  try {
    result = await tool.execute(params, ctx);
  } catch (error) {
    const durationMs = performance.now() - started;
    emit({ type: 'tool.execution.error', durationMs, errorClass: classifyError(error), stage: 'tool' });
    rt.loop?.recordOutcome({ toolName, params: rawParams, toolCallId: ctx.toolCallId, error });
    observe(rt, tool, toolName, ctx.toolCallId, params, durationMs, { error });
    throw error;
  }
  const durationMs = performance.now() - started;
  emit({ type: 'tool.execution.completed', durationMs, isError: result?.isError === true });
  rt.loop?.recordOutcome({ toolName, params: rawParams, toolCallId: ctx.toolCallId, result });
  observe(rt, tool, toolName, ctx.toolCallId, params, durationMs, { result });
  return result;
}

/** Re-bind every approval just before execution; any drift voids it (and the call). */
function approvalVoided(rt: GateRuntime, tool: KernelTool, toolName: string, outcome: GateOutcome): CallPathError | undefined {
  if (outcome.kind !== 'allowed' || outcome.approvals.length === 0) return undefined;
  const latest = outcome.approvals[outcome.approvals.length - 1];
  if (approvalDigest(tool, outcome.params, rt.run.sandboxProfile) === latest.digest) return undefined;
  return new CallPathError('APPROVAL_VOID', text.APPROVAL_VOID, { deniedReason: 'plugin-approval', disposition: 'blocked', toolName });
}

function observe(
  rt: GateRuntime, tool: KernelTool, toolName: string, toolCallId: string, params: unknown, durationMs: number,
  outcome: { result?: ToolResult; error?: unknown },
): void {
  if (rt.observers.length === 0) return;
  try {
    const event = buildAfterCallEvent({ toolName, toolCallId, pluginId: tool.pluginId, params, durationMs }, outcome);
    void notifyObservers(rt.observers, event, rt.run, rt.logger);
  } catch (error) {
    rt.logger.warn(`after_tool_call event could not be built (ignored): ${String(error)}`);
  }
}
