import type { DiagnosticsEmitter } from '../diagnostics/emitter.js';
import type { ToolLoopDetector } from '../loop/detector.js';
import type { ToolLoopDetectionConfig } from '../loop/config.js';
import { normalizeToolPolicyName } from '../policy/normalize.js';
import type { AfterToolCallObserver } from './after-call.js';
import type { ApprovalEvent } from './approvals.js';
import type { ApprovalSurface } from './approval-surface.js';
import { evaluateBeforeCall, evaluateUnhookedCall } from './before-call.js';
import { executeGated, invalidParamsOutcome, settleGatedCall, type GatedCall, type GateRuntime } from './execute-gated.js';
import { hookHandler, selectHooks, trustedPolicyHandler } from './handlers.js';
import { toJsonParams } from './json-params.js';
import type { GateOutcome } from './outcome.js';
import { isPlainObject } from './params.js';
import { createGateRunState, type GateRunState, type LoopVerdict } from './run-state.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './with-timeout.js';
import type { CallPathLogger, HookRegistration, KernelTool, RunContext, ToolExecuteContext, TrustedToolPolicy } from './types.js';

/** Everything one run's gate is built from. All optional: an empty gate passes calls straight through. */
export interface ToolGateOptions {
  /** Plugin `before_tool_call` handlers. */
  hooks?: readonly HookRegistration[];
  /** Trusted policies, evaluated before hooks in registration order. */
  trustedPolicies?: readonly TrustedToolPolicy[];
  afterCallObservers?: readonly AfterToolCallObserver[];
  /** The host's approval UI; absent → approval requests fail with "no approval surface". */
  approvalSurface?: ApprovalSurface;
  /** `tools.loopDetection` config, or a detector the host drives itself (ignored when `runState` is given). */
  loopDetection?: ToolLoopDetectionConfig | ToolLoopDetector;
  /** State shared by every gate of one run (loop history, allow-always approvals); default: this gate's own. */
  runState?: GateRunState;
  diagnostics?: DiagnosticsEmitter;
  logger?: CallPathLogger;
  /** The run every policy and hook is told about. */
  runContext?: RunContext;
  /** The session's sandbox profile, part of what an approval is bound to; read at check time. */
  sandboxProfile?: () => unknown;
  /** Per-handler timeout when a registration sets none (default 15 000 ms). */
  defaultHookTimeoutMs?: number;
  /** Name normalizer; defaults to the policy core's (trim, lower-case, aliases). */
  normalizeToolName?: (name: unknown) => string;
  /**
   * Pending until every denial reported through `diagnostics` so far is durable (the kernel's
   * audit trail); a vetoed or refused call returns only after it. Must never reject.
   */
  denialsRecorded?: () => Promise<void> | undefined;
}

/** One run's gate. */
export interface ToolGate {
  /** A tool whose `execute` runs gate → tool → observers (veto → blocked result, failure → throw). Metadata is preserved. */
  wrap<T extends KernelTool>(tool: T): T;
  /** One call through the gate, its end as data: `ran`, `threw`, `vetoed` or `failed`. Never throws. */
  call(tool: KernelTool, params: unknown, ctx: ToolExecuteContext): Promise<GatedCall>;
  /** The before-call decision alone (no execution, no diagnostics). */
  evaluate(tool: KernelTool, params: unknown, toolCallId: string, signal?: AbortSignal): Promise<GateOutcome>;
  /** True when the gate has nothing to do and wrapped tools call straight through. */
  readonly passThrough: boolean;
}

const GATED = Symbol.for('pincer.toolGate.wrapped');
const silentLogger: CallPathLogger = { warn: () => undefined, error: () => undefined };

/** True when a tool was already wrapped by a gate (so an adapter will not gate it twice). */
export function isGatedTool(tool: object): boolean {
  return (tool as Record<symbol, unknown>)[GATED] === true;
}

function emitApproval(rt: GateRuntime, tool: KernelTool, toolName: string, toolCallId: string, event: ApprovalEvent): void {
  const base = { ts: Date.now(), runId: rt.run.runId, sessionKey: rt.run.sessionKey, agentId: rt.run.agentId, toolCallId, toolName, pluginId: tool.pluginId, digest: event.digest, requestedBy: event.requestedBy };
  rt.diagnostics?.emit(
    event.resolution === undefined
      ? { ...base, type: 'tool.approval.requested' }
      : { ...base, type: 'tool.approval.resolved', resolution: event.resolution, ...(event.remembered ? { remembered: true } : {}) },
  );
}

function emitLoopVerdict(rt: GateRuntime, tool: KernelTool, toolName: string, toolCallId: string, verdict: LoopVerdict): void {
  rt.diagnostics?.emit({
    type: 'tool.loop.detected', ts: Date.now(), runId: rt.run.runId, sessionKey: rt.run.sessionKey, agentId: rt.run.agentId,
    toolCallId, toolName, pluginId: tool.pluginId, level: verdict.level, detector: verdict.detector, count: verdict.count,
    ...(verdict.livenessSignal ? { livenessSignal: verdict.livenessSignal } : {}),
  });
}

/** Build a run's gate (SPEC §3): create it once per run (or share `runState`), wrap each tool once. */
export function createToolGate(options: ToolGateOptions = {}): ToolGate {
  const hooks = options.hooks ?? [];
  const trustedPolicies = options.trustedPolicies ?? [];
  const observers = options.afterCallObservers ?? [];
  const state = options.runState ?? createGateRunState(options.loopDetection);
  const timeout = options.defaultHookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const normalize = options.normalizeToolName ?? normalizeToolPolicyName;
  const trusted = trustedPolicies.map((policy) => trustedPolicyHandler(policy, timeout));
  const sandboxProfile = options.sandboxProfile ?? (() => undefined);
  // Adapted once per gate, not per call; the matchers still run per call (selectHooks).
  const handlerOf = new Map(hooks.map((hook) => [hook, hookHandler(hook, timeout)]));
  const unhooked = hooks.length === 0 && trusted.length === 0;
  const runtime: GateRuntime = {
    run: options.runContext ?? {},
    sandboxProfile,
    state,
    logger: options.logger ?? silentLogger,
    diagnostics: options.diagnostics,
    denialsRecorded: options.denialsRecorded,
    observers,
    normalize: (name) => normalize(name) || 'tool',
    evaluate: (tool, toolName, params, toolCallId, signal, argsHash) => unhooked
      ? evaluateUnhookedCall({
        toolName, toolCallId, params, argsHash, state, logger: runtime.logger,
        onLoopVerdict: (verdict) => emitLoopVerdict(runtime, tool, toolName, toolCallId, verdict),
      })
      : evaluateBeforeCall({
        tool, toolName, toolCallId, params, argsHash, run: runtime.run, sandboxProfile: sandboxProfile(), trusted,
        hooks: selectHooks(hooks, toolName).map((hook) => handlerOf.get(hook)!),
        state, approvalSurface: options.approvalSurface, logger: runtime.logger, signal,
        onLoopVerdict: (verdict) => emitLoopVerdict(runtime, tool, toolName, toolCallId, verdict),
        onApproval: (event) => emitApproval(runtime, tool, toolName, toolCallId, event),
      }),
  };
  const passThrough = hooks.length === 0 && trusted.length === 0 && !state.loop && observers.length === 0 && !options.diagnostics;
  const call = (tool: KernelTool, params: unknown, ctx: ToolExecuteContext) => executeGated(runtime, tool, params, ctx);

  return {
    passThrough,
    call,
    wrap(tool) {
      if (isGatedTool(tool)) return tool;
      const execute: KernelTool['execute'] = passThrough
        ? (params, ctx) =>
            isPlainObject(params) ? tool.execute(params, ctx) : call(tool, params, ctx).then(settleGatedCall)
        : (params, ctx) => call(tool, params, ctx).then(settleGatedCall);
      return Object.defineProperty({ ...tool, execute }, GATED, { value: true }) as typeof tool;
    },
    async evaluate(tool, params, toolCallId, signal) {
      const toolName = runtime.normalize(tool.name);
      const json = toJsonParams(params);
      if (!json.ok) return invalidParamsOutcome(toolName, json.problem);
      return runtime.evaluate(tool, toolName, json.params, toolCallId, signal);
    },
  };
}
