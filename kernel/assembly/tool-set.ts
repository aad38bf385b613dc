/**
 * A run's ToolSet: the policy-filtered tools with provider-normalized schemas, and
 * `execute`, which runs a call through the gate into the owning plugin. Assembly is pure
 * and in memory; the gate and the per-tool wrappers are built on first use.
 */
import { toToolDefinition, unknownToolResult, type AdaptedTool } from '../adapter/index.js';
import type { KernelTool, ToolGate, ToolResult } from '../gate/index.js';
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { PolicyRemoval, ToolExplanation } from '../policy/index.js';
import type { CallPathLogger } from '../gate/index.js';
import type { ResolvedRun } from './run-shape.js';
import type { ToolSetSkills } from '../skills/service.js';

/** What the model sees of one tool. */
export interface ToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  pluginId?: string;
  executionMode?: 'parallel' | 'sequential';
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  toolCallId?: string;
  onProgress?: (progress: unknown) => void;
}

export interface ToolSet {
  readonly tools: readonly ToolDescriptor[];
  execute(name: string, params: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /** Every tool a layer removed, with the layer, rule and entries. */
  readonly removed: readonly PolicyRemoval[];
  explain(name: string): ToolExplanation;
  readonly warnings: readonly string[];
  /** Normalized names of the tools this run holds: the most a child run or cron job may get. */
  readonly effectiveAllowlist: readonly string[];
  readonly sandbox: ResolvedRun['sandbox'];
  readonly run: { agentId: string; sessionKey: string };
  /** The host directory this run's tools work in (served by its sandbox backend). */
  readonly workspace?: string;
  /** The run's skills: the prompt index, the structured list, and skill commands (through this run's gate). */
  readonly skills: ToolSetSkills;
}

export interface ToolSetParts {
  run: ResolvedRun;
  tools: readonly KernelTool[];
  removed: readonly PolicyRemoval[];
  explain: (name: string) => ToolExplanation;
  warnings: readonly string[];
  effectiveAllowlist: readonly string[];
  createGate: () => ToolGate;
  logger?: CallPathLogger;
  /** Built on first read of `toolSet.skills` (an in-memory snapshot), given this set's `execute`. */
  skills: (execute: ToolSet['execute']) => ToolSetSkills;
}

let callCounter = 0;

export function createToolSet(parts: ToolSetParts): ToolSet {
  const byName = new Map(parts.tools.map((tool) => [normalizeToolPolicyName(tool.name), tool]));
  const adapted = new Map<string, AdaptedTool>();
  let gate: ToolGate | undefined;
  const adapt = (key: string, tool: KernelTool): AdaptedTool => {
    let definition = adapted.get(key);
    if (!definition) {
      gate ??= parts.createGate();
      adapted.set(key, (definition = toToolDefinition(gate.wrap(tool), parts.logger)));
    }
    return definition;
  };
  let skills: ToolSetSkills | undefined;
  const toolSet: ToolSet = Object.freeze({
    get skills(): ToolSetSkills {
      return (skills ??= parts.skills((name, params, options) => toolSet.execute(name, params, options)));
    },
    tools: Object.freeze(parts.tools.map((tool) => Object.freeze({ name: tool.name, description: tool.description, inputSchema: tool.parameters, pluginId: tool.pluginId, executionMode: tool.executionMode }))),
    removed: parts.removed,
    explain: parts.explain,
    warnings: parts.warnings,
    effectiveAllowlist: parts.effectiveAllowlist,
    sandbox: parts.run.sandbox,
    run: { agentId: parts.run.agentId, sessionKey: parts.run.sessionKey },
    workspace: parts.run.placement.workspaceDir,
    async execute(name: string, params: unknown, options: ExecuteOptions = {}): Promise<ToolResult> {
      const key = normalizeToolPolicyName(name);
      const tool = byName.get(key);
      // The model asked for a tool this run does not hold: tell it which layer removed it.
      if (!tool) return unknownToolResult(name, parts.explain);
      const toolCallId = options.toolCallId ?? `call_${Date.now().toString(36)}_${(callCounter++).toString(36)}`;
      return adapt(key, tool).execute(params, { signal: options.signal, toolCallId, onProgress: options.onProgress });
    },
  });
  return toolSet;
}
