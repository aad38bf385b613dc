/**
 * The policy engine of one kernel: config in, per-run policy results out. Remembers the
 * frozen steps of recent run shapes so repeated assemblies for the same agent, provider,
 * group and sender reuse compiled plans, and the pipeline's result per (frozen tool surface,
 * steps, vocabulary), so a run shape already seen costs a look-up whatever the surface's size.
 * Every result carries its run's warnings; the logger hears each distinct warning once per engine.
 */
import type { PincerConfig } from '../config/schema.js';
import { findById } from './id-match.js';
import { applyPolicyPipeline, type PolicyResult, type PolicyTool } from './pipeline.js';
import { buildPolicySteps } from './steps.js';
import { WarningOnce } from './warnings.js';
import type { RunContext } from './run-context.js';
import type { PolicyLayerId, PolicyRemoval, PolicyStep, ToolExplanation } from './types.js';
import type { PolicyVocabulary } from './vocabulary.js';

const STEPS_CACHE_LIMIT = 256;

type EngineRun = RunContext & { agentId: string };

export interface EvaluateOptions {
  /** Every plugin and tool the kernel knows of (see PipelineOptions.vocabulary). */
  vocabulary?: PolicyVocabulary;
  /** Warnings about the run itself (its shape, shadowed tools), reported with the policy's. */
  runWarnings?: readonly string[];
}

export interface PolicyEngine {
  evaluate<T extends PolicyTool>(tools: readonly T[], run: EngineRun, sandboxed: boolean, options?: EvaluateOptions): PolicyResult<T>;
  /** What the layers would do with one tool that no enabled plugin provides; warns about nothing. */
  verdict(toolName: string, run: EngineRun, sandboxed: boolean): ToolExplanation;
  steps(run: EngineRun, sandboxed: boolean): readonly PolicyStep[];
}

/** Everything in a run context that a policy layer reads. */
function runShapeKey(run: EngineRun, sandboxed: boolean): string {
  const s = run.sender;
  return JSON.stringify([
    run.agentId, run.provider, run.model, run.groupId, s?.id, s?.username, s?.e164, s?.name,
    sandboxed, run.subagentDepth ?? 0, run.inheritedAllowlist ?? null, run.toolsAllow ?? null, run.trigger === 'memory',
  ]);
}

/** Stands in for "no vocabulary" as a WeakMap key. */
const OWN_VOCABULARY = Object.freeze({});

// A result holds a surface-sized tool list (and the kernel plans one per result): at 20,000
// tools that is megabytes, so a surface keeps the results of its most recent run shapes only.
const RESULTS_PER_SURFACE = 32;

type Results = WeakMap<readonly PolicyTool[], Map<readonly PolicyStep[], WeakMap<object, PolicyResult<PolicyTool>>>>;

/** The pipeline's result, frozen, shared by every run whose (frozen) surface, steps and vocabulary are the same objects. */
function cachedPipeline<T extends PolicyTool>(results: Results, tools: readonly T[], steps: readonly PolicyStep[], vocabulary: PolicyVocabulary | undefined): PolicyResult<T> {
  const cacheable = Object.isFrozen(tools) && (vocabulary === undefined || Object.isFrozen(vocabulary));
  if (!cacheable) return applyPolicyPipeline(tools, steps, { vocabulary });
  let bySteps = results.get(tools);
  if (!bySteps) results.set(tools, (bySteps = new Map()));
  let byVocabulary = bySteps.get(steps);
  if (!byVocabulary) {
    if (bySteps.size >= RESULTS_PER_SURFACE) bySteps.delete(bySteps.keys().next().value as readonly PolicyStep[]);
    bySteps.set(steps, (byVocabulary = new WeakMap()));
  }
  let result = byVocabulary.get(vocabulary ?? OWN_VOCABULARY) as PolicyResult<T> | undefined;
  if (!result) {
    const fresh = applyPolicyPipeline(tools, steps, { vocabulary });
    // Shared between runs: nothing a caller holds may change it.
    result = Object.freeze({ ...fresh, tools: Object.freeze(fresh.tools) as T[], removals: Object.freeze(fresh.removals) as PolicyRemoval[], warnings: Object.freeze(fresh.warnings) as string[], effectiveAllowlist: Object.freeze(fresh.effectiveAllowlist) as string[], layers: Object.freeze(fresh.layers) as PolicyLayerId[] });
    byVocabulary.set(vocabulary ?? OWN_VOCABULARY, result);
  }
  return result;
}

export function createPolicyEngine(config: PincerConfig, options: { warn?: (message: string) => void } = {}): PolicyEngine {
  const logged = new WarningOnce();
  const stepsCache = new Map<string, readonly PolicyStep[]>();
  const results: Results = new WeakMap();
  // Run shapes that differ only where no layer looks (another sender, no sender policy) get the
  // same steps object, and with it the cached result. Steps are plain data, so equal JSON is equal steps.
  const stepsByContent = new Map<string, readonly PolicyStep[]>();
  const internSteps = (built: readonly PolicyStep[]): readonly PolicyStep[] => {
    const key = JSON.stringify(built);
    const known = stepsByContent.get(key);
    if (known) return known;
    if (stepsByContent.size >= STEPS_CACHE_LIMIT) stepsByContent.delete(stepsByContent.keys().next().value as string);
    stepsByContent.set(key, built);
    return built;
  };
  const agents = Object.fromEntries((config.agents?.list ?? []).map((agent) => [agent.id, agent]));

  function steps(run: EngineRun, sandboxed: boolean): readonly PolicyStep[] {
    const key = runShapeKey(run, sandboxed);
    let cached = stepsCache.get(key);
    if (!cached) {
      const agent = findById(agents, run.agentId)?.value;
      cached = internSteps(Object.freeze(buildPolicySteps({ tools: config.tools, agentId: agent?.id ?? run.agentId, agentTools: agent?.tools, groups: config.groups, sandboxed, run })));
      if (stepsCache.size >= STEPS_CACHE_LIMIT) stepsCache.delete(stepsCache.keys().next().value as string);
      stepsCache.set(key, cached);
    }
    return cached;
  }

  return {
    steps,
    evaluate(tools, run, sandboxed, evaluateOptions = {}) {
      const result = cachedPipeline(results, tools, steps(run, sandboxed), evaluateOptions.vocabulary);
      const warnings = [...new Set([...(evaluateOptions.runWarnings ?? []), ...result.warnings])];
      for (const warning of warnings) if (logged.first(warning)) options.warn?.(warning);
      return { ...result, warnings };
    },
    verdict: (toolName, run, sandboxed) => applyPolicyPipeline([{ name: toolName }], steps(run, sandboxed)).explain(toolName),
  };
}
