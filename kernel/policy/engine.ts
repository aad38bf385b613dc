/**
 * The policy engine of one kernel: config in, per-run policy results out. Remembers the
 * frozen steps of recent run shapes so repeated assemblies for the same agent, provider,
 * group and sender reuse compiled plans, and says each unknown-entry warning once.
 */
import type { PincerConfig } from '../config/schema.js';
import { applyPolicyPipeline, type PolicyResult, type PolicyTool } from './pipeline.js';
import { buildPolicySteps } from './steps.js';
import { WarningOnce } from './unknown-entries.js';
import type { RunContext } from './run-context.js';
import type { PolicyStep } from './types.js';

const STEPS_CACHE_LIMIT = 256;

export interface PolicyEngine {
  evaluate<T extends PolicyTool>(tools: readonly T[], run: RunContext & { agentId: string }, sandboxed: boolean): PolicyResult<T>;
  steps(run: RunContext & { agentId: string }, sandboxed: boolean): readonly PolicyStep[];
}

/** Everything in a run context that a policy layer reads. */
function runShapeKey(run: RunContext & { agentId: string }, sandboxed: boolean): string {
  const s = run.sender;
  return JSON.stringify([
    run.agentId, run.provider, run.model, run.groupId, s?.id, s?.username, s?.e164, s?.name,
    sandboxed, run.subagentDepth ?? 0, run.inheritedAllowlist ?? null, run.toolsAllow ?? null,
  ]);
}

export function createPolicyEngine(config: PincerConfig, options: { warn?: (message: string) => void } = {}): PolicyEngine {
  const warningOnce = new WarningOnce();
  const stepsCache = new Map<string, readonly PolicyStep[]>();
  const agents = new Map((config.agents?.list ?? []).map((agent) => [agent.id, agent]));

  function steps(run: RunContext & { agentId: string }, sandboxed: boolean): readonly PolicyStep[] {
    const key = runShapeKey(run, sandboxed);
    let cached = stepsCache.get(key);
    if (!cached) {
      const agent = agents.get(run.agentId);
      cached = Object.freeze(buildPolicySteps({ tools: config.tools, agentId: run.agentId, agentTools: agent?.tools, groups: config.groups, sandboxed, run }));
      if (stepsCache.size >= STEPS_CACHE_LIMIT) stepsCache.delete(stepsCache.keys().next().value as string);
      stepsCache.set(key, cached);
    }
    return cached;
  }

  return {
    steps,
    evaluate: (tools, run, sandboxed) => applyPolicyPipeline(tools, steps(run, sandboxed), { warningOnce, warn: options.warn }),
  };
}
