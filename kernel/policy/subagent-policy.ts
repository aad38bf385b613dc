/**
 * The subagent layer: system and interactive tools a sub-session never gets, plus the
 * spawn/session tools a leaf (one that may not spawn further) does not need.
 */
import { uniqueStrings } from '../../sdk/policy/index.js';
import type { ToolPolicyConfig } from './policy-forms.js';
import type { ToolPolicy } from './types.js';

export const SUBAGENT_DENY_ALWAYS: readonly string[] = Object.freeze([
  'gateway', 'agents_list', 'openclaw', 'session_status', 'progress_card', 'automations', 'message',
  'sessions_send', 'conversations_list', 'conversations_send', 'conversations_turn',
]);
export const SUBAGENT_DENY_LEAF: readonly string[] = Object.freeze(['subagents', 'sessions_list', 'sessions_history', 'sessions_search', 'sessions_spawn']);
export const DEFAULT_MAX_SPAWN_DEPTH = 5;

export type SubagentRole = 'main' | 'orchestrator' | 'leaf';

/** Depth 0 is the main session; a sub-session that may still spawn is an orchestrator. */
export function resolveSubagentRole(depth: number | undefined, maxSpawnDepth = DEFAULT_MAX_SPAWN_DEPTH): SubagentRole {
  const d = Number.isInteger(depth) && (depth as number) > 0 ? (depth as number) : 0;
  if (d === 0) return 'main';
  return d < Math.max(1, maxSpawnDepth) ? 'orchestrator' : 'leaf';
}

/** The subagent layer's policy for a role, with `tools.subagents.tools` applied. */
export function resolveSubagentToolPolicy(role: SubagentRole, configured: ToolPolicyConfig | undefined): ToolPolicy | undefined {
  if (role === 'main') return undefined;
  const deny = [...SUBAGENT_DENY_ALWAYS, ...(role === 'leaf' ? SUBAGENT_DENY_LEAF : []), ...(configured?.deny ?? [])];
  const allow = configured?.allow && configured.alsoAllow ? uniqueStrings([...configured.allow, ...configured.alsoAllow]) : configured?.allow;
  return { allow, deny };
}
