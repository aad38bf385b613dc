/**
 * The policy pipeline: run a tool list through the ordered layers. Each layer only
 * narrows; every removal is recorded with its layer so `explain()` can say why.
 * Pure and synchronous: no I/O, safe on the assembly hot path.
 */
import { buildPluginToolGroups, normalizeToolPolicyName } from '../../sdk/policy/index.js';
import { lintStep, type LintSurface, type ListFinding } from './entry-lint.js';
import { stepPlan, type ToolSurface } from './step-plan.js';
import type { PolicyVocabulary } from './vocabulary.js';
import { formatListWarnings } from './warnings.js';
import type { PolicyLayerId, PolicyRemoval, PolicyStep, ToolExplanation } from './types.js';

/** What the pipeline needs to know about a tool. */
export interface PolicyTool {
  name: string;
  /** The plugin that serves it (its id names the tool in allow and deny lists); absent for a core tool. */
  pluginId?: string;
  /** A core tool served by a plugin: named by its plugin id, but not part of `group:plugins`. */
  core?: boolean;
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
  /**
   * Every plugin and tool the caller knows of (the kernel: all configured plugins and all
   * contributed tools), so a deny entry for another agent's plugin is not called a typo.
   * Defaults to this tool list's own plugins and tools.
   */
  vocabulary?: PolicyVocabulary;
}

interface Surface extends ToolSurface, LintSurface {
  readable: readonly PolicyTool[];
  unreadable: string[];
  vocabulary: PolicyVocabulary;
}

const surfaces = new WeakMap<readonly PolicyTool[], Surface>();

/** Readable tools, their plugin groups and the core names; cached for a frozen tool list. */
function surfaceOf(tools: readonly PolicyTool[]): Surface {
  const cached = surfaces.get(tools);
  if (cached) return cached;
  const readable: PolicyTool[] = [];
  const unreadable: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    let name = '';
    try {
      name = normalizeToolPolicyName(tools[i]?.name);
    } catch {
      // A throwing getter is as unreadable as a missing name.
    }
    if (name) readable.push(tools[i]);
    else unreadable.push(`tools: policy filtering skipped a tool with no readable name at index ${i}.`);
  }
  const names = new Set(readable.map((tool) => normalizeToolPolicyName(tool.name)));
  const groups = buildPluginToolGroups(readable, (tool) => (tool.pluginId ? { pluginId: tool.pluginId, core: tool.core } : undefined));
  const surface = { readable, unreadable, names, groups, vocabulary: { plugins: new Set(groups.byPlugin.keys()), tools: names } };
  if (Object.isFrozen(tools)) surfaces.set(tools, surface);
  return surface;
}

const lints = new WeakMap<PolicyStep, WeakMap<Surface, WeakMap<PolicyVocabulary, ListFinding[]>>>();

/** A step's findings against one surface and vocabulary, cached when all three are frozen. */
function stepFindings(step: PolicyStep, surface: Surface, vocabulary: PolicyVocabulary, cacheable: boolean): ListFinding[] {
  if (!step.lists?.length) return [];
  if (!cacheable || !Object.isFrozen(step)) return lintStep(step, surface, vocabulary);
  let bySurface = lints.get(step);
  if (!bySurface) lints.set(step, (bySurface = new WeakMap()));
  let byVocabulary = bySurface.get(surface);
  if (!byVocabulary) bySurface.set(surface, (byVocabulary = new WeakMap()));
  let findings = byVocabulary.get(vocabulary);
  if (!findings) byVocabulary.set(vocabulary, (findings = lintStep(step, surface, vocabulary)));
  return findings;
}

export function applyPolicyPipeline<T extends PolicyTool>(tools: readonly T[], steps: readonly PolicyStep[], options: PipelineOptions = {}): PolicyResult<T> {
  const surface = surfaceOf(tools);
  const frozen = Object.isFrozen(tools);
  const vocabulary = options.vocabulary ?? surface.vocabulary;
  const findings: ListFinding[] = [];
  const removals: PolicyRemoval[] = [];
  const layers: PolicyLayerId[] = [];
  let current = surface.readable as T[];
  for (const step of steps) {
    if (!step.policy) continue;
    layers.push(step.layer);
    const plan = stepPlan(step, step.policy, surface, frozen);
    findings.push(...stepFindings(step, surface, vocabulary, frozen && (vocabulary === surface.vocabulary || Object.isFrozen(vocabulary))));
    let removedAny = false;
    const kept: T[] = [];
    for (const tool of current) {
      if (plan.matches(tool.name)) kept.push(tool);
      else {
        removedAny = true;
        removals.push(plan.audit(normalizeToolPolicyName(tool.name)));
      }
    }
    if (removedAny) current = kept;
  }
  const effectiveAllowlist = [...new Set(current.map((tool) => normalizeToolPolicyName(tool.name)))];
  const warnings = [...surface.unreadable, ...formatListWarnings(findings, vocabulary)];
  return { tools: current === surface.readable ? [...current] : current, removals, warnings, effectiveAllowlist, layers, explain: explainer(effectiveAllowlist, removals, layers) };
}

function explainer(present: readonly string[], removals: readonly PolicyRemoval[], layers: PolicyLayerId[]) {
  let presentSet: Set<string> | undefined;
  let removalByTool: Map<string, PolicyRemoval> | undefined;
  return (toolName: string): ToolExplanation => {
    // Built on first use: most assemblies are never asked to explain.
    presentSet ??= new Set(present);
    if (!removalByTool) {
      removalByTool = new Map();
      for (const removal of removals) if (!removalByTool.has(removal.tool)) removalByTool.set(removal.tool, removal);
    }
    const tool = normalizeToolPolicyName(toolName);
    if (presentSet.has(tool)) return { tool, present: true, layersPassed: [...layers] };
    const removal = removalByTool.get(tool);
    return removal ? { tool, present: false, removal } : { tool, present: false, unknown: true };
  };
}
