/**
 * The sandbox layer's policy: which tools a sandboxed session keeps. Agent lists win over
 * global ones, which win over the shipped defaults; explicitly allowing a default-denied
 * tool lifts it from the default deny list.
 */
import { SANDBOX_DEFAULT_TOOL_ALLOW, SANDBOX_DEFAULT_TOOL_DENY } from '../../protocol/vocabulary/index.js';
import { compileGlobs, expandToolGroups, matchesGlobs, normalizeToolPolicyName, uniqueStrings } from '../../sdk/policy/index.js';
import type { ToolPolicyConfig } from './policy-forms.js';

export interface SandboxPolicySource {
  source: 'agent' | 'global' | 'default';
  key: string;
}

export interface SandboxToolPolicy {
  allow: string[];
  deny: string[];
  sources: { allow: SandboxPolicySource; deny: SandboxPolicySource };
}

type Field = keyof ToolPolicyConfig;

function pick(field: Field, agent: ToolPolicyConfig | undefined, global: ToolPolicyConfig | undefined, agentId: string | undefined) {
  const key = `tools.sandbox.tools.${field}`;
  if (Array.isArray(agent?.[field])) return { values: agent[field], source: { source: 'agent', key: `agents.${agentId ?? '<agent>'}.${key}` } as SandboxPolicySource };
  if (Array.isArray(global?.[field])) return { values: global[field], source: { source: 'global', key } as SandboxPolicySource };
  return { values: undefined, source: { source: 'default', key } as SandboxPolicySource };
}

function mergeAllow(base: string[] | undefined, extra: string[] | undefined): string[] {
  // An explicitly empty allow keeps its legacy meaning: allow everything.
  if (Array.isArray(base)) return base.length === 0 ? [] : extra?.length ? uniqueStrings([...base, ...extra]) : [...base];
  return extra?.length ? uniqueStrings([...SANDBOX_DEFAULT_TOOL_ALLOW, ...extra]) : [...SANDBOX_DEFAULT_TOOL_ALLOW];
}

function defaultDenyLessExplicitAllows(explicitAllow: string[]): string[] {
  const allowed = compileGlobs(expandToolGroups(explicitAllow));
  if (allowed.size === 0) return [...SANDBOX_DEFAULT_TOOL_DENY];
  return SANDBOX_DEFAULT_TOOL_DENY.filter((name) => !matchesGlobs(normalizeToolPolicyName(name), allowed));
}

/** Resolve the sandbox policy for one agent from `agents.<id>.tools.sandbox.tools` and `tools.sandbox.tools`. */
export function resolveSandboxToolPolicy(agent: ToolPolicyConfig | undefined, global: ToolPolicyConfig | undefined, agentId?: string): SandboxToolPolicy {
  const allowCfg = pick('allow', agent, global, agentId);
  const alsoCfg = pick('alsoAllow', agent, global, agentId);
  const denyCfg = pick('deny', agent, global, agentId);
  let allow = expandToolGroups(mergeAllow(allowCfg.values, alsoCfg.values));
  let deny = expandToolGroups(denyCfg.values ?? defaultDenyLessExplicitAllows([...(allowCfg.values ?? []), ...(alsoCfg.values ?? [])]));
  const denyGlobs = compileGlobs(deny);
  // Denying the legacy `image` tool also denies its successor.
  if (matchesGlobs('image', denyGlobs) && !matchesGlobs('view_image', denyGlobs)) deny = [...deny, 'view_image'];
  // A restricted sandbox keeps the image viewer: multimodal work needs it.
  if (allow.length > 0 && !deny.includes('view_image') && !allow.includes('view_image')) allow = [...allow, 'view_image'];
  const allowSource =
    allowCfg.source.source === 'agent' ? allowCfg.source
    : alsoCfg.source.source === 'agent' ? alsoCfg.source
    : allowCfg.source.source === 'global' ? allowCfg.source
    : alsoCfg.source.source === 'global' ? alsoCfg.source
    : allowCfg.source;
  return { allow, deny, sources: { allow: allowSource, deny: denyCfg.source } };
}
