import type { DiagnosticsEmitter } from '../diagnostics/emitter.js';
import { classifyError, type DiagnosticsEvent, type DiagnosticsEventBody, type ToolExecutionEventBase } from '../diagnostics/events.js';
import { buildAfterCallEvent, notifyObservers, type AfterToolCallObserver } from './after-call.js';
import { hashToolCall } from '../loop/hashing.js';
import { approvalDigest } from './approval-digest.js';
import { CallPathError, type DeniedReason } from './errors.js';
import { toJsonParams } from './json-params.js';
import * as text from './messages.js';
import { buildBlockedToolResult, type GateOutcome, type VetoCode } from './outcome.js';
import type { GateRunState } from './run-state.js';
import type { CallPathLogger, KernelTool, RunContext, ToolExecuteContext, ToolResult } from './types.js';

/** Shared state of one gate, used by every call through it. */
export interface GateRuntime {
  run: RunContext;
  /** The session's sandbox profile, read each time an approval is bound or re-checked. */
  sandboxProfile: () => unknown;
  state: GateRunState;
  logger: CallPathLogger;
  diagnostics?: DiagnosticsEmitter;
  /** See ToolGateOptions.denialsRecorded. */
  denialsRecorded?: () => Promise<void> | undefined;
  observers: readonly AfterToolCallObserver[];
  normalize(name: unknown): string;
  /** A gate without handlers decides synchronously (loop detection alone): no promise to await. */
  evaluate(tool: KernelTool, toolName: string, params: Record<string, unknown>, toolCallId: string, signal?: AbortSignal, argsHash?: string): GateOutcome | Promise<GateOutcome>;
}

/**
 * How one call through the gate ended, as data: the gate's own verdict (`vetoed`, `failed`)
 * is kept apart from what the tool did (`ran`, `threw`), so no tool result can pass for a
 * verdict of the gate.
 */
export type GatedCall =
  | { kind: 'ran'; result: ToolResult; params: Record<string, unknown> }
  | { kind: 'threw'; error: unknown; params: Record<string, unknown> }
  | { kind: 'vetoed'; code: VetoCode; deniedReason: DeniedReason; reason: string; result: ToolResult }
  | { kind: 'failed'; error: CallPathError };

/** The failure for params that are not plain JSON (9.10: refused before any hook runs). */
export function invalidParamsOutcome(toolName: string, problem?: string): GateOutcome {
  const message = problem ? `${text.INVALID_PARAMS} (${problem})` : text.INVALID_PARAMS;
  return {
    kind: 'failure',
    error: new CallPathError('INVALID_PARAMS', message, { deniedReason: 'invalid-params', disposition: 'failed', toolName }),
  };
}

/**
 * One call through the gate: decide → (veto | failure | re-check approvals → execute) →
 * diagnostics, loop outcome, observers. Only identifiers and timings reach diagnostics.
 */
export async function executeGated(rt: GateRuntime, tool: KernelTool, rawParams: unknown, ctx: ToolExecuteContext): Promise<GatedCall> {
  const toolName = rt.normalize(tool.name);
  const { diagnostics } = rt;
  const { loop } = rt.state;
  // Durations go to diagnostics and observers only; with neither, the clock is not read.
  const now = diagnostics !== undefined || rt.observers.length > 0 ? readClock : noClock;
  const gateStart = now();
  // One detached copy, taken before any hook runs, is what every step judges and runs.
  const json = toJsonParams(rawParams);
  // The loop signature, hashed once: check, start and outcome all key the call by it. It is
  // the copy's hash, taken before anything runs; the copy is the plain JSON of the raw params,
  // so it is the hash the raw params had (params that are not JSON are hashed raw, as before).
  const argsHash = loop && json.ok ? hashToolCall(toolName, json.params) : undefined;
  const decided = json.ok
    ? rt.evaluate(tool, toolName, json.params, ctx.toolCallId, ctx.signal, argsHash)
    : invalidParamsOutcome(toolName, json.problem);
  const outcome = decided instanceof Promise ? await decided : decided;

  if (outcome.kind === 'veto') {
    emitCallEvent(rt, tool, toolName, ctx.toolCallId, { type: 'tool.execution.blocked', code: outcome.code, deniedReason: outcome.deniedReason, reason: outcome.reason, ...(outcome.blockedBy ? { blockedBy: outcome.blockedBy } : {}) });
    await denialsRecorded(rt);
    const blocked = buildBlockedToolResult(outcome.reason, outcome.deniedReason);
    loop?.recordOutcome({ toolName, params: rawParams, argsHash, toolCallId: ctx.toolCallId, result: blocked });
    return { kind: 'vetoed', code: outcome.code, deniedReason: outcome.deniedReason, reason: outcome.reason, result: blocked };
  }
  const failure = outcome.kind === 'failure' ? outcome.error : approvalVoided(rt, tool, toolName, outcome);
  // The tool gets its own copy: neither an approved (frozen) snapshot nor the hooks' objects are shared.
  const toolParams = failure ? undefined : toolCopy(outcome as Extract<GateOutcome, { kind: 'allowed' }>, toolName);
  if (failure || !toolParams?.ok) {
    const error = failure ?? (toolParams as { error: CallPathError }).error;
    emitCallEvent(rt, tool, toolName, ctx.toolCallId, { type: 'tool.execution.error', durationMs: now() - gateStart, errorClass: classifyError(error), stage: 'gate' });
    await denialsRecorded(rt);
    loop?.recordOutcome({ toolName, params: rawParams, argsHash, toolCallId: ctx.toolCallId, error });
    return { kind: 'failed', error };
  }
  const { params } = toolParams;
  if (heard(diagnostics, 'tool.execution.started')) emitCallEvent(rt, tool, toolName, ctx.toolCallId, { type: 'tool.execution.started' });
  const started = now();
  let result: ToolResult;
  try {
    result = await tool.execute(params, ctx);
  } catch (error) {
    const durationMs = now() - started;
    emitCallEvent(rt, tool, toolName, ctx.toolCallId, { type: 'tool.execution.error', durationMs, errorClass: classifyError(error), stage: 'tool' });
    loop?.recordOutcome({ toolName, params: rawParams, argsHash, toolCallId: ctx.toolCallId, error });
    observe(rt, tool, toolName, ctx.toolCallId, params, durationMs, { error });
    return { kind: 'threw', error, params };
  }
  const durationMs = now() - started;
  if (heard(diagnostics, 'tool.execution.completed')) emitCallEvent(rt, tool, toolName, ctx.toolCallId, { type: 'tool.execution.completed', durationMs, isError: result?.isError === true });
  loop?.recordOutcome({ toolName, params: rawParams, argsHash, toolCallId: ctx.toolCallId, result });
  observe(rt, tool, toolName, ctx.toolCallId, params, durationMs, { result });
  return { kind: 'ran', result, params };
}

const readClock = (): number => performance.now();
const noClock = (): number => 0;

/**
 * The start and end of every call are built only when someone listens to them (the audit
 * trail listens to denials and errors alone); another emitter without `listensTo` gets them all.
 */
function heard(diagnostics: DiagnosticsEmitter | undefined, type: DiagnosticsEventBody['type']): boolean {
  return diagnostics !== undefined && (diagnostics.listensTo?.(type) ?? true);
}

function emitCallEvent(rt: GateRuntime, tool: KernelTool, toolName: string, toolCallId: string, event: DiagnosticsEventBody): void {
  if (!rt.diagnostics) return;
  const base: ToolExecutionEventBase = {
    runId: rt.run.runId, sessionKey: rt.run.sessionKey, agentId: rt.run.agentId,
    toolCallId, toolName, pluginId: tool.pluginId, ts: Date.now(),
  };
  rt.diagnostics.emit({ ...base, ...event } as DiagnosticsEvent);
}

/** Waits for the audit trail only when it has a denial to put on disk. */
async function denialsRecorded(rt: GateRuntime): Promise<void> {
  const pending = rt.denialsRecorded?.();
  if (pending) await pending;
}

/** The thrown shape of a gated call (the reference's): veto → blocked result, failure → throw. */
export function settleGatedCall(call: GatedCall): ToolResult {
  switch (call.kind) {
    case 'ran':
      return call.result;
    case 'vetoed':
      return call.result;
    case 'failed':
      throw call.error;
    case 'threw':
      throw call.error;
  }
}

/** Params for the tool: the gate's own copy, or a fresh one when hooks rewrote them (which must stay JSON). */
function toolCopy(allowed: Extract<GateOutcome, { kind: 'allowed' }>, toolName: string): { ok: true; params: Record<string, unknown> } | { ok: false; error: CallPathError } {
  if (allowed.approvals.length === 0 && !allowed.rewritten) return { ok: true, params: allowed.params };
  const copied = toJsonParams(allowed.params);
  if (copied.ok) return copied;
  const cause = new Error(`the rewritten ${copied.problem}`);
  return { ok: false, error: new CallPathError('POLICY_HOOK_FAILED', text.HOOK_FAILED, { cause, deniedReason: 'plugin-before-tool-call', disposition: 'failed', toolName }) };
}

/** Re-bind every approval just before execution; any drift voids it (and the call). */
function approvalVoided(rt: GateRuntime, tool: KernelTool, toolName: string, outcome: GateOutcome): CallPathError | undefined {
  if (outcome.kind !== 'allowed' || outcome.approvals.length === 0) return undefined;
  const latest = outcome.approvals[outcome.approvals.length - 1];
  if (approvalDigest(tool, outcome.params, rt.sandboxProfile()) === latest.digest) return undefined;
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
