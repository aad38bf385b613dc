/**
 * The policy pipeline: run a tool list through the ordered layers. Each layer only
 * narrows; every removal is recorded with its layer so `explain()` can say why.
 * Pure and synchronous: no I/O, safe on the assembly hot path.
 */
import {
  buildPluginToolGroups,
  createRuntimeToolMatcher,
  createToolPolicyMatcher,
  expandPolicyWithPluginGroups,
  normalizeToolPolicyName,
} from '../../sdk/policy/index.js';
import { auditStep } from './audit.js';
import { describeUnknownEntries, findUnknownAllowEntries, WarningOnce } from './unknown-entries.js';
import type { PolicyLayerId, PolicyRemoval, PolicyStep, ToolExplanation } from './types.js';

/** What the pipeline needs to know about a tool. */
export interface PolicyTool {
  name: string;
  /** Owning plugin; absent for a core tool. */
  pluginId?: string;
}

export interface PolicyResult<T extends PolicyTool> {
  /** Surviving tools, original objects, original order. */
  tools: T[];
  removals: PolicyRemoval[];
  warnings: string[];
  /** Normalized names of the surviving tools: what a child run or cron job may inherit. */
  effectiveAllowlist: string[];
  /** Layers that had a policy, in order. */
  layers: PolicyLayerId[];
  explain(toolName: string): ToolExplanation;
}

export interface PipelineOptions {
  /** Shared across runs so each warning text is emitted once per kernel. */
  warningOnce?: WarningOnce;
  warn?: (message: string) => void;
}

/** Drop entries that cannot be read, with a warning naming the index. */
function readableTools<T extends PolicyTool>(tools: readonly T[], warnings: string[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < tools.length; i++) {
    let name = '';
    try {
      name = normalizeToolPolicyName(tools[i]?.name);
    } catch {
      // A throwing getter is as unreadable as a missing name.
    }
    if (name) out.push(tools[i]);
    else warnings.push(`tools: policy filtering skipped a tool with no readable name at index ${i}.`);
  }
  return out;
}

export function applyPolicyPipeline<T extends PolicyTool>(tools: readonly T[], steps: readonly PolicyStep[], options: PipelineOptions = {}): PolicyResult<T> {
  const warnings: string[] = [];
  const removals: PolicyRemoval[] = [];
  const layers: PolicyLayerId[] = [];
  let current = readableTools(tools, warnings);
  const coreTools = new Set(current.filter((tool) => !tool.pluginId).map((tool) => normalizeToolPolicyName(tool.name)));
  const groups = buildPluginToolGroups(current, (tool) => (tool.pluginId ? { pluginId: tool.pluginId } : undefined));
  for (const step of steps) {
    if (!step.policy) continue;
    layers.push(step.layer);
    if (step.kind !== 'cap') {
      const text = describeUnknownEntries(step, findUnknownAllowEntries(step.policy.allow, groups, coreTools));
      if (text && (options.warningOnce?.first(text) ?? true)) {
        warnings.push(text);
        options.warn?.(text);
      }
    }
    const expanded = expandPolicyWithPluginGroups(step.policy, groups) ?? {};
    const matches = step.kind === 'cap' ? createRuntimeToolMatcher(expanded.allow ?? []) : createToolPolicyMatcher(expanded);
    const removed: string[] = [];
    current = current.filter((tool) => {
      if (matches(tool.name)) return true;
      removed.push(normalizeToolPolicyName(tool.name));
      return false;
    });
    removals.push(...auditStep(step, expanded, removed));
  }
  const effectiveAllowlist = [...new Set(current.map((tool) => normalizeToolPolicyName(tool.name)))];
  return { tools: current, removals, warnings, effectiveAllowlist, layers, explain: explainer(effectiveAllowlist, removals, layers) };
}

function explainer(present: readonly string[], removals: readonly PolicyRemoval[], layers: PolicyLayerId[]) {
  const presentSet = new Set(present);
  const removalByTool = new Map<string, PolicyRemoval>();
  for (const removal of removals) if (!removalByTool.has(removal.tool)) removalByTool.set(removal.tool, removal);
  return (toolName: string): ToolExplanation => {
    const tool = normalizeToolPolicyName(toolName);
    if (presentSet.has(tool)) return { tool, present: true, layersPassed: [...layers] };
    const removal = removalByTool.get(tool);
    return removal ? { tool, present: false, removal } : { tool, present: false, unknown: true };
  };
}
