/**
 * Build the ordered policy layers for one run from config:
 * profile → provider profile → global → global by provider → agent → agent by provider →
 * group → sender → sandbox → subagent → inherited → memory → runtime.
 */
import type { AgentToolsConfig, GroupConfig, ToolsConfig } from '../config/tools-schema.js';
import { groupToolPolicy, selectGroups, selectProvider, senderToolPolicy } from './layer-inputs.js';
import { pickToolPolicy, profilePolicy, type ToolPolicyConfig } from './policy-forms.js';
import { resolveSandboxToolPolicy } from './sandbox-policy.js';
import { resolveSubagentRole, resolveSubagentToolPolicy } from './subagent-policy.js';
import type { RunContext } from './run-context.js';
import type { ConfigList, PolicyStep, ToolPolicy } from './types.js';

export interface PolicyInputs {
  tools?: ToolsConfig;
  agentId?: string;
  agentTools?: AgentToolsConfig;
  groups?: Record<string, GroupConfig>;
  sandboxed: boolean;
  run: RunContext;
}

function keys(prefix: string): { allow: string; deny: string } {
  return { allow: `${prefix}.allow`, deny: `${prefix}.deny` };
}

/** The lists of one `{allow, alsoAllow, deny}` config object, keyed under `prefix`. */
function listsOf(prefix: string, config: ToolPolicyConfig | undefined): ConfigList[] {
  const lists: ConfigList[] = [];
  for (const field of ['allow', 'alsoAllow', 'deny'] as const) {
    const entries = config?.[field];
    if (Array.isArray(entries) && entries.length > 0) lists.push({ key: `${prefix}.${field}`, kind: field === 'deny' ? 'deny' : 'allow', entries });
  }
  return lists;
}

/** A layer built from one `{allow, alsoAllow, deny}` config object. */
function policyStep(layer: PolicyStep['layer'], label: string, prefix: string, config: ToolPolicyConfig | undefined): PolicyStep {
  return { layer, label, policy: pickToolPolicy(config), configKeys: keys(prefix), lists: listsOf(prefix, config) };
}

function freezeList(list: readonly string[] | undefined): string[] | undefined {
  return list ? (Object.freeze([...list]) as string[]) : undefined;
}

// Equal layers share one frozen policy object, so a new run shape (another sender, say) reuses
// the compiled plans of every layer whose lists did not change. Bounded, oldest evicted.
// A plan (step-plan.ts, cached per policy object) depends on more than the lists: a cap reads
// `allow: []` as "nothing" where an ordinary layer reads it as "everything", and a removal names
// its step's layer, label and config keys. So those are part of the key: two steps share a policy
// object only when they would compile the same plan.
const INTERN_LIMIT = 1024;
const interned = new Map<string, ToolPolicy>();

function internPolicy(step: PolicyStep, policy: ToolPolicy): ToolPolicy {
  const key = JSON.stringify([step.kind ?? 'policy', step.layer, step.label, step.configKeys ?? null, policy.allow ?? null, policy.deny ?? null]);
  let frozen = interned.get(key);
  if (!frozen) {
    frozen = Object.freeze({ allow: freezeList(policy.allow), deny: freezeList(policy.deny) });
    if (interned.size >= INTERN_LIMIT) interned.delete(interned.keys().next().value as string);
    interned.set(key, frozen);
  }
  return frozen;
}

/**
 * Steps are frozen (on copies, never the caller's config arrays): the pipeline then caches
 * each step's compiled plan by identity, and nothing downstream can widen a layer.
 */
function freezeStep(step: PolicyStep): PolicyStep {
  const policy = step.policy ? internPolicy(step, step.policy) : undefined;
  const lists = step.lists && Object.freeze(step.lists.map((list) => Object.freeze({ ...list, entries: Object.freeze([...list.entries]) })));
  return Object.freeze({ ...step, policy, configKeys: step.configKeys && Object.freeze({ ...step.configKeys }), lists });
}

/** The layers of one run, each with its label and the config keys that change it. Frozen. */
export function buildPolicySteps(inputs: PolicyInputs): PolicyStep[] {
  return buildSteps(inputs).map(freezeStep);
}

function buildSteps(inputs: PolicyInputs): PolicyStep[] {
  const { tools, agentTools, run } = inputs;
  const agentId = inputs.agentId?.trim();
  const agentPrefix = agentId ? `agents.${agentId}.tools` : 'agent tools';
  const profile = (agentTools?.profile ?? tools?.profile)?.trim();
  const alsoAllowKey = agentTools?.alsoAllow ? `${agentPrefix}.alsoAllow` : 'tools.alsoAllow';
  const alsoAllow = agentTools?.alsoAllow ?? tools?.alsoAllow;
  const globalProvider = selectProvider(tools?.byProvider, 'tools', run);
  const agentProvider = selectProvider(agentTools?.byProvider, agentPrefix, run);
  const providerProfileFrom = agentProvider?.value.profile ? agentProvider : globalProvider;
  const providerProfile = providerProfileFrom?.value.profile?.trim();
  const groups = selectGroups(inputs.groups, run.groupId);
  const group = groupToolPolicy(groups);
  const sender = senderToolPolicy(groups, tools?.toolsBySender, run.sender);
  const steps: PolicyStep[] = [
    {
      layer: 'profile', label: profile ? `tools.profile (${profile})` : 'tools.profile', policy: profilePolicy(profile, alsoAllow),
      configKeys: { allow: agentTools?.profile ? `${agentPrefix}.profile` : 'tools.profile', deny: 'tools.deny', alsoAllow: alsoAllowKey },
      // The profile's own members are never warned about: a shipped profile may name tools this runtime lacks.
      lists: alsoAllow?.length ? [{ key: alsoAllowKey, kind: 'allow', entries: alsoAllow }] : [],
    },
    {
      layer: 'providerProfile', label: providerProfile ? `tools.byProvider.profile (${providerProfile})` : 'tools.byProvider.profile',
      policy: profilePolicy(providerProfile, providerProfileFrom?.value.alsoAllow),
      configKeys: {
        allow: providerProfileFrom ? `${providerProfileFrom.key}.profile` : 'tools.byProvider.<provider>.profile',
        alsoAllow: `${providerProfileFrom?.key ?? 'tools.byProvider.<provider>'}.alsoAllow`,
      },
      lists: providerProfile ? listsOf(providerProfileFrom!.key, { alsoAllow: providerProfileFrom!.value.alsoAllow }) : [],
    },
    policyStep('global', 'tools.allow', 'tools', tools),
    policyStep('globalProvider', 'tools.byProvider.allow', globalProvider?.key ?? 'tools.byProvider.<provider>', globalProvider?.value),
    policyStep('agent', `${agentPrefix}.allow`, agentPrefix, agentTools),
    policyStep('agentProvider', `${agentPrefix}.byProvider.allow`, agentProvider?.key ?? `${agentPrefix}.byProvider.<provider>`, agentProvider?.value),
    policyStep('group', 'group tools.allow', group?.key ?? 'groups.<group>.tools', group?.value),
    policyStep('sender', 'tools.toolsBySender', sender?.key ?? 'tools.toolsBySender.<sender>', sender?.value),
  ];
  if (inputs.sandboxed) {
    const sandbox = resolveSandboxToolPolicy(agentTools?.sandbox?.tools, tools?.sandbox?.tools, agentId);
    const configured = [...listsOf(`${agentPrefix}.sandbox.tools`, agentTools?.sandbox?.tools), ...listsOf('tools.sandbox.tools', tools?.sandbox?.tools)];
    steps.push({ layer: 'sandbox', label: 'sandbox tools.allow', policy: { allow: sandbox.allow, deny: sandbox.deny }, configKeys: { allow: sandbox.sources.allow.key, deny: sandbox.sources.deny.key }, lists: configured });
  }
  const role = resolveSubagentRole(run.subagentDepth, tools?.subagents?.maxSpawnDepth);
  const subagent = resolveSubagentToolPolicy(role, tools?.subagents?.tools);
  if (subagent) steps.push({ layer: 'subagent', label: 'subagent tools.allow', policy: subagent, configKeys: keys('tools.subagents.tools'), lists: listsOf('tools.subagents.tools', tools?.subagents?.tools) });
  if (run.inheritedAllowlist) steps.push({ layer: 'inherited', label: 'inherited tools', kind: 'cap', policy: { allow: [...run.inheritedAllowlist] }, configKeys: { allow: "the parent run's tool set" } });
  // A memory flush holds read and (the kernel's append-only) write, nothing else: not even the
  // apply_patch an allow of write would otherwise admit.
  if (run.trigger === 'memory') steps.push({ layer: 'memory', label: 'memory flush (trigger memory)', policy: { allow: ['read', 'write'], deny: ['apply_patch'] }, configKeys: { allow: "the run's trigger (memory)", deny: "the run's trigger (memory)" } });
  if (run.toolsAllow) steps.push({ layer: 'runtime', label: 'runtime toolsAllow', kind: 'cap', policy: { allow: [...run.toolsAllow] }, configKeys: { allow: 'the run\'s toolsAllow (cron job or host)' } });
  return steps;
}
