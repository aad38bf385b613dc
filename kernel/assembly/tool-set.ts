/**
 * A run's ToolSet: the policy-filtered tools with provider-normalized schemas, and
 * `execute`, which runs a call through the gate into the owning plugin and resolves to one
 * `CallResult` for every outcome. Assembly is pure and in memory: the tools come from the run
 * shape's plan, each is bound to the run on the first call that names it, and the gate is built
 * on first use.
 */
import {
  classifyGatedCall, coerceToolParams, failedResult, formatUnavailablePluginMessage, formatUnknownToolMessage, toolFailureLogLine,
  type CallResult, type FailedCallResult, type PluginAvailability,
} from '../adapter/index.js';
import type { DiagnosticsEmitter } from '../diagnostics/index.js';
import type { CallPathLogger, KernelTool, ToolGate } from '../gate/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { PolicyRemoval } from '../policy/index.js';
import type { CallsBlocked, RunToolExplanation } from './run-explain.js';
import type { ResolvedRun } from './run-shape.js';
import type { ToolSetSkills } from '../skills/service.js';
import type { ToolMetadata } from '../tool-search/metadata.js';
import type { PlannedTool, ToolPlan } from './tool-plan.js';
import { KernelUsageError } from './usage-error.js';

/** What the model sees of one tool (and MCP clients of `pincer serve`: title, hints, output schema). */
export interface ToolDescriptor extends ToolMetadata {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  pluginId?: string;
  executionMode?: 'parallel' | 'sequential';
}

export interface ExecuteOptions {
  /** Aborting it cancels the call; the result is `cancelled` with the abort reason as `cause`. */
  signal?: AbortSignal;
  toolCallId?: string;
  onProgress?: (progress: unknown) => void;
}

export interface ToolSet {
  readonly tools: readonly ToolDescriptor[];
  /** Never throws for anything a model or plugin can cause: every end of a call is a `CallResult`. */
  execute(name: string, params: unknown, options?: ExecuteOptions): Promise<CallResult>;
  /** Every tool a layer removed, with the layer, rule and entries. */
  readonly removed: readonly PolicyRemoval[];
  explain(name: string): RunToolExplanation;
  readonly warnings: readonly string[];
  /** Normalized names of the tools this run holds: the most a child run or cron job may get. */
  readonly effectiveAllowlist: readonly string[];
  readonly sandbox: ResolvedRun['sandbox'];
  /** The run as the kernel resolved it: `runId` is the context's, else the session's (`session:<agent>:<session>`). */
  readonly run: { runId: string; agentId: string; sessionKey: string };
  /** Set while a required plugin is missing or failed: every call is then blocked. Read live. */
  readonly blocked: CallsBlocked | undefined;
  /** The host directory this run's tools work in (served by its sandbox backend). */
  readonly workspace?: string;
  /** The run's skills: the prompt index, the structured list, and skill commands (through this run's gate). */
  readonly skills: ToolSetSkills;
}

export interface ToolSetParts {
  run: ResolvedRun & { runId: string };
  /** The run shape's tools, shared by its runs. */
  plan: ToolPlan;
  /** A planned tool bound to this run: called once per tool, on the first call that names it. */
  bind: (tool: PlannedTool) => KernelTool;
  /** Tool search: what the run's session found (listed and callable from then on). */
  discovered: ReadonlySet<string>;
  removed: readonly PolicyRemoval[];
  explain: (name: string) => RunToolExplanation;
  warnings: readonly string[];
  effectiveAllowlist: readonly string[];
  createGate: () => ToolGate;
  blocked: () => CallsBlocked | undefined;
  pluginAvailability: (pluginId: string) => PluginAvailability | undefined;
  /** Throws when the kernel is stopped: calling a stopped kernel is misuse, not an outcome. */
  assertUsable: () => void;
  diagnostics?: DiagnosticsEmitter;
  logger?: CallPathLogger;
  /** Built on first read of `toolSet.skills` (an in-memory snapshot), given this set's `execute`. */
  skills: (execute: ToolSet['execute']) => ToolSetSkills;
}

let callCounter = 0;

/** The result for a name this run does not hold: removed by policy, its plugin failed, or unknown. */
function missingTool(name: string, base: { toolName: string; toolCallId: string }, explanation: RunToolExplanation): FailedCallResult {
  if ('unavailable' in explanation) {
    const { plugin } = explanation;
    const retryable = plugin.state === 'restarting' || plugin.state === 'starting';
    return failedResult(base, 'unavailable', { code: 'PLUGIN_UNAVAILABLE', message: formatUnavailablePluginMessage(name, plugin) }, { plugin, retryable, details: { status: 'error', tool: base.toolName } });
  }
  const message = formatUnknownToolMessage(name, explanation);
  if (!explanation.present && 'removal' in explanation) {
    return failedResult(base, 'denied', { code: 'TOOL_REMOVED', message }, { details: { status: 'error', tool: base.toolName, removal: { ...explanation.removal } } });
  }
  return failedResult(base, 'unavailable', { code: 'UNKNOWN_TOOL', message }, { details: { status: 'error', tool: base.toolName } });
}

function checkCall(name: unknown, options: ExecuteOptions): void {
  if (typeof name !== 'string') throw new KernelUsageError('INVALID_CALL', `execute(name, params): name must be a string, got ${name === null ? 'null' : typeof name}`);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new KernelUsageError('INVALID_CALL', 'execute(…, { signal }): signal must be an AbortSignal');
  if (options.toolCallId !== undefined && (typeof options.toolCallId !== 'string' || !options.toolCallId)) throw new KernelUsageError('INVALID_CALL', 'execute(…, { toolCallId }): toolCallId must be a non-empty string');
}

export function createToolSet(parts: ToolSetParts): ToolSet {
  let gate: ToolGate | undefined;
  const { run, plan, discovered } = parts;
  // Bound on first call: a run that only lists its tools binds none of them.
  const bound = new Map<PlannedTool, KernelTool>();

  function rejected(result: FailedCallResult, pluginId?: string): FailedCallResult {
    parts.diagnostics?.emit({
      type: 'tool.execution.rejected', ts: Date.now(), runId: run.runId, sessionKey: run.sessionKey, agentId: run.agentId,
      toolCallId: result.toolCallId, toolName: result.toolName, pluginId, outcome: result.outcome, code: result.code,
    });
    return result;
  }

  let skills: ToolSetSkills | undefined;
  const toolSet: ToolSet = {
    get skills(): ToolSetSkills {
      return (skills ??= parts.skills((name, params, options) => toolSet.execute(name, params, options)));
    },
    get tools(): readonly ToolDescriptor[] {
      return plan.listed(discovered);
    },
    removed: parts.removed,
    explain: parts.explain,
    warnings: parts.warnings,
    effectiveAllowlist: parts.effectiveAllowlist,
    sandbox: run.sandbox,
    run: Object.freeze({ runId: run.runId, agentId: run.agentId, sessionKey: run.sessionKey }),
    workspace: run.placement.workspaceDir,
    get blocked() {
      return parts.blocked();
    },
    async execute(name, params, options = {}) {
      checkCall(name, options);
      parts.assertUsable();
      const toolName = normalizeToolPolicyName(name) || 'tool';
      const toolCallId = options.toolCallId ?? `call_${Date.now().toString(36)}_${(callCounter++).toString(36)}`;
      const base = { toolName, toolCallId };
      const planned = plan.find(toolName);
      // The model asked for a tool this run does not hold: say which layer removed it, or which plugin is down.
      if (!planned) return rejected(missingTool(name, base, parts.explain(name)));
      const notLoaded = plan.search?.notLoaded(planned, discovered);
      if (notLoaded) return rejected(failedResult(base, 'unavailable', { code: 'TOOL_NOT_LOADED', message: notLoaded }, { details: { status: 'error', tool: toolName, deferred: true } }), planned.pluginId);
      let tool = bound.get(planned);
      if (!tool) bound.set(planned, (tool = parts.bind(planned)));
      const coerced = coerceToolParams(tool.name, tool.parameters, params);
      if (!coerced.ok) return rejected(failedResult(base, 'tool_error', { code: 'INVALID_PARAMS', message: coerced.message }, { details: { status: 'error', tool: toolName } }), tool.pluginId);
      gate ??= parts.createGate();
      const call = await gate.call(tool, coerced.params, { signal: options.signal, toolCallId, onProgress: options.onProgress });
      return classifyGatedCall(call, {
        ...base,
        signal: options.signal,
        pluginAvailability: parts.pluginAvailability,
        onToolFailure: (message, effective) => parts.logger?.error(toolFailureLogLine(toolName, message, params, effective)),
      });
    },
  };
  return Object.freeze(toolSet);
}
