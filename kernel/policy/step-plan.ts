/**
 * What a step needs at run time, computed once per (frozen policy, tool surface): the
 * plugin-expanded policy, its matcher and its removal auditor. The kernel freezes
 * the steps it builds and the tool lists it hands over, so both can key a cache by identity;
 * unfrozen input is planned afresh every time and stays correct.
 */
import {
  createRuntimeToolMatcher,
  createToolPolicyMatcher,
  expandPolicyWithPluginGroups,
  type PluginToolGroups,
  type ToolNameMatcher,
} from '../../sdk/policy/index.js';
import { createRemovalAuditor, type RemovalAuditor } from './audit.js';
import type { PolicyStep, ToolPolicy } from './types.js';

export interface ToolSurface {
  groups: PluginToolGroups;
}

export interface StepPlan {
  expanded: { allow?: string[]; deny?: string[] };
  matches: ToolNameMatcher;
  /** The removal record of a tool this step drops (memoized per tool name). */
  audit: RemovalAuditor;
}

const plans = new WeakMap<ToolPolicy, WeakMap<ToolSurface, StepPlan>>();

function planStep(step: PolicyStep, policy: ToolPolicy, surface: ToolSurface): StepPlan {
  const expanded = expandPolicyWithPluginGroups(policy, surface.groups) ?? {};
  const matches = step.kind === 'cap' ? createRuntimeToolMatcher(expanded.allow ?? []) : createToolPolicyMatcher(expanded);
  const audit = createRemovalAuditor(step, expanded.deny, createToolPolicyMatcher({ deny: expanded.deny }));
  return { expanded, matches, audit };
}

/** The plan of one step against one tool surface, cached when both are frozen. */
export function stepPlan(step: PolicyStep, policy: ToolPolicy, surface: ToolSurface, surfaceFrozen: boolean): StepPlan {
  if (!surfaceFrozen || !Object.isFrozen(policy)) return planStep(step, policy, surface);
  let bySurface = plans.get(policy);
  if (!bySurface) plans.set(policy, (bySurface = new WeakMap()));
  let plan = bySurface.get(surface);
  if (!plan) bySurface.set(surface, (plan = planStep(step, policy, surface)));
  return plan;
}
