/**
 * Build the ordered policy layers for one run from config:
 * profile → provider profile → global → global by provider → agent → agent by provider →
 * group → sender → sandbox → subagent → inherited → runtime.
 */
import { resolveCoreToolProfilePolicy } from '../../protocol/vocabulary/index.js';
import type { AgentToolsConfig, GroupConfig, ProviderToolPolicyConfig, ToolsConfig } from '../config/tools-schema.js';
import { pickToolPolicy, profilePolicy, type ToolPolicyConfig } from './policy-forms.js';
import { resolveSandboxToolPolicy } from './sandbox-policy.js';
import { resolveSubagentRole, resolveSubagentToolPolicy } from './subagent-policy.js';
import type { RunContext, RunSender } from './run-context.js';
import type { PolicyStep, ToolPolicy } from './types.js';

export interface PolicyInputs {
  tools?: ToolsConfig;
  agentId?: string;
  agentTools?: AgentToolsConfig;
  groups?: Record<string, GroupConfig>;
  sandboxed: boolean;
  run: RunContext;
}

/** `provider/model` wins over `provider`; keys compare case-insensitively. */
function byProvider(map: Record<string, ProviderToolPolicyConfig> | undefined, run: RunContext): { key: string; value: ProviderToolPolicyConfig } | undefined {
  if (!map || !run.provider) return undefined;
  const provider = run.provider.trim().toLowerCase();
  const wanted = run.model ? [`${provider}/${run.model.trim().toLowerCase()}`, provider] : [provider];
  for (const want of wanted) for (const [key, value] of Object.entries(map)) if (key.trim().toLowerCase() === want) return { key, value };
  return undefined;
}

/** First matching sender key: `id:`, `e164:`, `username:`, `name:`, a bare id, then `*`. */
function senderPolicy(map: Record<string, ToolPolicyConfig> | undefined, sender: RunSender | undefined): { key: string; value: ToolPolicyConfig } | undefined {
  if (!map) return undefined;
  const candidates: string[] = [];
  if (sender?.id) candidates.push(`id:${sender.id}`, sender.id);
  if (sender?.e164) candidates.push(`e164:${sender.e164}`);
  if (sender?.username) candidates.push(`username:${sender.username.replace(/^@/, '')}`);
  if (sender?.name) candidates.push(`name:${sender.name}`);
  candidates.push('*');
  const entries = Object.entries(map).map(([key, value]) => [key.trim().toLowerCase(), key, value] as const);
  for (const candidate of candidates.map((c) => c.trim().toLowerCase())) {
    const hit = entries.find(([folded]) => folded === candidate);
    if (hit) return { key: hit[1], value: hit[2] };
  }
  return undefined;
}

function keys(prefix: string): { allow: string; deny: string } {
  return { allow: `${prefix}.allow`, deny: `${prefix}.deny` };
}

function freezeList(list: readonly string[] | undefined): string[] | undefined {
  return list ? (Object.freeze([...list]) as string[]) : undefined;
}

// Equal policies share one frozen object, so a new run shape (another sender, say) reuses
// the compiled plans of every layer whose lists did not change. Bounded, oldest evicted.
const INTERN_LIMIT = 1024;
const interned = new Map<string, ToolPolicy>();

function internPolicy(policy: ToolPolicy): ToolPolicy {
  const key = JSON.stringify([policy.allow ?? null, policy.deny ?? null]);
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
  const policy = step.policy ? internPolicy(step.policy) : undefined;
  return Object.freeze({ ...step, policy, configKeys: step.configKeys && Object.freeze({ ...step.configKeys }), suppressUnavailableWarningFor: freezeList(step.suppressUnavailableWarningFor) });
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
  const alsoAllow = agentTools?.alsoAllow ?? tools?.alsoAllow;
  const globalProvider = byProvider(tools?.byProvider, run);
  const agentProvider = byProvider(agentTools?.byProvider, run);
  const providerProfile = (agentProvider?.value.profile ?? globalProvider?.value.profile)?.trim();
  const providerAlsoAllow = agentProvider?.value.profile ? agentProvider.value.alsoAllow : globalProvider?.value.alsoAllow;
  const group = run.groupId ? inputs.groups?.[run.groupId] : undefined;
  const sender = senderPolicy(group?.toolsBySender ?? tools?.toolsBySender, run.sender);
  const senderPrefix = group?.toolsBySender ? `groups.${run.groupId}.toolsBySender` : 'tools.toolsBySender';
  const steps: PolicyStep[] = [
    {
      layer: 'profile', label: profile ? `tools.profile (${profile})` : 'tools.profile', policy: profilePolicy(profile, alsoAllow),
      configKeys: { allow: agentTools?.profile ? `${agentPrefix}.profile` : 'tools.profile', deny: 'tools.deny' },
      suppressUnavailableWarningFor: resolveCoreToolProfilePolicy(profile)?.allow,
    },
    {
      layer: 'providerProfile', label: providerProfile ? `tools.byProvider.profile (${providerProfile})` : 'tools.byProvider.profile',
      policy: profilePolicy(providerProfile, providerAlsoAllow), configKeys: { allow: 'tools.byProvider.<provider>.profile' },
      suppressUnavailableWarningFor: resolveCoreToolProfilePolicy(providerProfile)?.allow,
    },
    { layer: 'global', label: 'tools.allow', policy: pickToolPolicy(tools), configKeys: keys('tools') },
    { layer: 'globalProvider', label: 'tools.byProvider.allow', policy: pickToolPolicy(globalProvider?.value), configKeys: keys(`tools.byProvider.${globalProvider?.key ?? '<provider>'}`) },
    { layer: 'agent', label: `${agentPrefix}.allow`, policy: pickToolPolicy(agentTools), configKeys: keys(agentPrefix) },
    { layer: 'agentProvider', label: `${agentPrefix}.byProvider.allow`, policy: pickToolPolicy(agentProvider?.value), configKeys: keys(`${agentPrefix}.byProvider.${agentProvider?.key ?? '<provider>'}`) },
    { layer: 'group', label: 'group tools.allow', policy: pickToolPolicy(group?.tools), configKeys: keys(`groups.${run.groupId ?? '<group>'}.tools`) },
    { layer: 'sender', label: 'tools.toolsBySender', policy: pickToolPolicy(sender?.value), configKeys: keys(`${senderPrefix}.${sender?.key ?? '<sender>'}`) },
  ];
  if (inputs.sandboxed) {
    const sandbox = resolveSandboxToolPolicy(agentTools?.sandbox?.tools, tools?.sandbox?.tools, agentId);
    steps.push({ layer: 'sandbox', label: 'sandbox tools.allow', policy: { allow: sandbox.allow, deny: sandbox.deny }, configKeys: { allow: sandbox.sources.allow.key, deny: sandbox.sources.deny.key } });
  }
  const role = resolveSubagentRole(run.subagentDepth, tools?.subagents?.maxSpawnDepth);
  const subagent = resolveSubagentToolPolicy(role, tools?.subagents?.tools);
  if (subagent) steps.push({ layer: 'subagent', label: 'subagent tools.allow', policy: subagent, configKeys: keys('tools.subagents.tools') });
  if (run.inheritedAllowlist) steps.push({ layer: 'inherited', label: 'inherited tools', kind: 'cap', policy: { allow: [...run.inheritedAllowlist] }, configKeys: { allow: "the parent run's tool set" } });
  if (run.toolsAllow) steps.push({ layer: 'runtime', label: 'runtime toolsAllow', kind: 'cap', policy: { allow: [...run.toolsAllow] }, configKeys: { allow: 'the run\'s toolsAllow (cron job or host)' } });
  return steps;
}
