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
import { pickToolMetadata, type ToolMetadata } from '../tool-search/metadata.js';

/** What the model sees of one tool (and MCP clients of `pincer serve`: title, hints, output schema). */
export interface ToolDescriptor extends ToolMetadata {
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
  /** Tool search: what the model is shown now (a subset of `tools`, growing as searches find tools). */
  listed?: () => readonly KernelTool[];
  /** Tool search: refuses a deferred tool the run has not found yet. */
  refusal?: (name: string) => ToolResult | undefined;
}

const describeTool = (tool: KernelTool): ToolDescriptor =>
  Object.freeze({ name: tool.name, description: tool.description, inputSchema: tool.parameters, pluginId: tool.pluginId, executionMode: tool.executionMode, ...pickToolMetadata(tool) });

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
  const all = Object.freeze(parts.tools.map(describeTool));
  const descriptors = new Map(parts.tools.map((tool, i) => [tool, all[i]]));
  let shown: { from: readonly KernelTool[]; tools: readonly ToolDescriptor[] } | undefined;
  return Object.freeze({
    get tools(): readonly ToolDescriptor[] {
      if (!parts.listed) return all;
      const listed = parts.listed();
      if (shown?.from !== listed) shown = { from: listed, tools: Object.freeze(listed.map((tool) => descriptors.get(tool) ?? describeTool(tool))) };
      return shown.tools;
    },
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
      const refused = parts.refusal?.(name);
      if (refused) return refused;
      const toolCallId = options.toolCallId ?? `call_${Date.now().toString(36)}_${(callCounter++).toString(36)}`;
      return adapt(key, tool).execute(params, { signal: options.signal, toolCallId, onProgress: options.onProgress });
    },
  });
}
