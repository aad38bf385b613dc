import type { DiagnosticsEmitter } from '../diagnostics/emitter.js';
import { createToolLoopDetector, type ToolLoopDetector } from '../loop/detector.js';
import type { ToolLoopDetectionConfig } from '../loop/config.js';
import { normalizeToolPolicyName } from '../policy/normalize.js';
import type { AfterToolCallObserver } from './after-call.js';
import type { ApprovalSurface } from './approval-surface.js';
import { evaluateBeforeCall } from './before-call.js';
import { executeGated, invalidParamsOutcome, type GateRuntime } from './execute-gated.js';
import { hookHandler, selectHooks, trustedPolicyHandler } from './handlers.js';
import type { GateOutcome } from './outcome.js';
import { isPlainObject } from './params.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './with-timeout.js';
import type { CallPathLogger, HookRegistration, KernelTool, RunContext, TrustedToolPolicy } from './types.js';

/** Everything one run's gate is built from. All optional: an empty gate passes calls straight through. */
export interface ToolGateOptions {
  /** Plugin `before_tool_call` handlers. */
  hooks?: readonly HookRegistration[];
  /** Trusted policies, evaluated before hooks in registration order. */
  trustedPolicies?: readonly TrustedToolPolicy[];
  afterCallObservers?: readonly AfterToolCallObserver[];
  /** The host's approval UI; absent → approval requests fail with "no approval surface". */
  approvalSurface?: ApprovalSurface;
  /** `tools.loopDetection` config, or a detector the host drives itself. */
  loopDetection?: ToolLoopDetectionConfig | ToolLoopDetector;
  diagnostics?: DiagnosticsEmitter;
  logger?: CallPathLogger;
  runContext?: RunContext;
  /** Per-handler timeout when a registration sets none (default 15 000 ms). */
  defaultHookTimeoutMs?: number;
  /** Name normalizer; defaults to the policy core's (trim, lower-case, aliases). */
  normalizeToolName?: (name: unknown) => string;
}

/** One run's gate. */
export interface ToolGate {
  /** A tool whose `execute` runs gate → tool → observers. Metadata is preserved. */
  wrap<T extends KernelTool>(tool: T): T;
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

function resolveLoop(option: ToolGateOptions['loopDetection']): ToolLoopDetector | undefined {
  if (!option) return undefined;
  const detector = 'check' in option ? (option as ToolLoopDetector) : createToolLoopDetector(option as ToolLoopDetectionConfig);
  return detector.config.enabled ? detector : undefined;
}

/** Build a run's gate (SPEC §3): create it once per run, wrap each tool once. */
export function createToolGate(options: ToolGateOptions = {}): ToolGate {
  const hooks = options.hooks ?? [];
  const trustedPolicies = options.trustedPolicies ?? [];
  const observers = options.afterCallObservers ?? [];
  const loop = resolveLoop(options.loopDetection);
  const timeout = options.defaultHookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const normalize = options.normalizeToolName ?? normalizeToolPolicyName;
  const trusted = trustedPolicies.map((policy) => trustedPolicyHandler(policy, timeout));
  const runtime: GateRuntime = {
    run: options.runContext ?? {},
    logger: options.logger ?? silentLogger,
    diagnostics: options.diagnostics,
    observers,
    loop,
    normalize: (name) => normalize(name) || 'tool',
    evaluate: (tool, toolName, params, toolCallId, signal) =>
      evaluateBeforeCall({
        tool, toolName, toolCallId, params, run: runtime.run, trusted,
        hooks: selectHooks(hooks, toolName).map((hook) => hookHandler(hook, timeout)),
        loop, warnedLoopKeys, approvalSurface: options.approvalSurface, rememberedApprovals,
        logger: runtime.logger, signal,
      }),
  };
  const warnedLoopKeys = new Set<string>();
  const rememberedApprovals = new Set<string>();
  const passThrough = hooks.length === 0 && trusted.length === 0 && !loop && observers.length === 0 && !options.diagnostics;

  return {
    passThrough,
    wrap(tool) {
      if (isGatedTool(tool)) return tool;
      const execute: KernelTool['execute'] = passThrough
        ? (params, ctx) =>
            isPlainObject(params) ? tool.execute(params, ctx) : executeGated(runtime, tool, params, ctx)
        : (params, ctx) => executeGated(runtime, tool, params, ctx);
      return Object.defineProperty({ ...tool, execute }, GATED, { value: true }) as typeof tool;
    },
    async evaluate(tool, params, toolCallId, signal) {
      const toolName = runtime.normalize(tool.name);
      if (!isPlainObject(params)) return invalidParamsOutcome(toolName);
      return runtime.evaluate(tool, toolName, params, toolCallId, signal);
    },
  };
}
