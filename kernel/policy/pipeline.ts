/**
 * The policy pipeline: run a tool list through the ordered layers. Each layer only
 * narrows; every removal is recorded with its layer so `explain()` can say why.
 * Pure and synchronous: no I/O, safe on the assembly hot path.
 */
import { buildPluginToolGroups, normalizeToolPolicyName } from '../../sdk/policy/index.js';
import { lintStep, type LintSurface, type ListFinding } from './entry-lint.js';
import { stepPlan, type ToolSurface } from './step-plan.js';
import { DROP, KEEP, UNDECIDED, stepVerdicts } from './step-verdicts.js';
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
  /** The normalized name of each readable tool, by index. */
  keys: readonly string[];
  /** 1 where a readable tool is the first with its normalized name (the effective allowlist lists it). */
  firstOfKey: Uint8Array;
  unreadable: string[];
  vocabulary: PolicyVocabulary;
}

const surfaces = new WeakMap<readonly PolicyTool[], Surface>();

/** Readable tools, their plugin groups and the core names; cached for a frozen tool list. */
function surfaceOf(tools: readonly PolicyTool[]): Surface {
  const cached = surfaces.get(tools);
  if (cached) return cached;
  const readable: PolicyTool[] = [];
  const keys: string[] = [];
  const unreadable: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    let name = '';
    try {
      name = normalizeToolPolicyName(tools[i]?.name);
    } catch {
      // A throwing getter is as unreadable as a missing name.
    }
    if (name) {
      readable.push(tools[i]);
      keys.push(name);
    } else unreadable.push(`tools: policy filtering skipped a tool with no readable name at index ${i}.`);
  }
  const names = new Set<string>();
  const firstOfKey = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    if (names.has(keys[i])) continue;
    names.add(keys[i]);
    firstOfKey[i] = 1;
  }
  const groups = buildPluginToolGroups(readable, (tool) => (tool.pluginId ? { pluginId: tool.pluginId, core: tool.core } : undefined));
  const surface = { readable, keys, firstOfKey, unreadable, names, groups, vocabulary: { plugins: new Set(groups.byPlugin.keys()), tools: names } };
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
  const readable = surface.readable as readonly T[];
  const { keys, firstOfKey } = surface;
  // The tools still in, as indices into `readable`: the first `count` of `current`, or all of
  // `readable` while no layer removed any. Each layer compacts them in place (it only narrows),
  // so a run allocates one index buffer, however many layers remove tools.
  let current: Int32Array | undefined;
  let count = readable.length;
  for (const step of steps) {
    if (!step.policy) continue;
    layers.push(step.layer);
    const plan = stepPlan(step, step.policy, surface, frozen);
    findings.push(...stepFindings(step, surface, vocabulary, frozen && (vocabulary === surface.vocabulary || Object.isFrozen(vocabulary))));
    const verdicts = stepVerdicts(plan, readable.length);
    const from = current;
    let survivors = 0;
    for (let k = 0; k < count; k++) {
      const i = from ? from[k] : k;
      let verdict = verdicts[i];
      if (verdict === UNDECIDED) verdicts[i] = verdict = plan.matches(readable[i].name) ? KEEP : DROP;
      if (verdict === KEEP) {
        if (current) current[survivors] = i;
        survivors++;
      } else {
        if (!current) {
          // The first removal of the run: the tools before it were all kept, in order.
          current = new Int32Array(readable.length);
          for (let j = 0; j < k; j++) current[j] = j;
        }
        removals.push(plan.audit(keys[i]));
      }
    }
    count = survivors;
  }
  const kept: T[] = [];
  // A verdict depends on the normalized name only, so tools of one name are kept or dropped
  // together, and the first kept one of a name is its first in the surface.
  const effectiveAllowlist: string[] = [];
  for (let k = 0; k < count; k++) {
    const i = current ? current[k] : k;
    kept.push(readable[i]);
    if (firstOfKey[i]) effectiveAllowlist.push(keys[i]);
  }
  const warnings = [...surface.unreadable, ...formatListWarnings(findings, vocabulary)];
  return { tools: kept, removals, warnings, effectiveAllowlist, layers, explain: explainer(effectiveAllowlist, removals, layers) };
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
