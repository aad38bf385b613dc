/**
 * The creator cap: a job's tools are fixed at creation to what its creator's run held (the
 * run's effective allowlist, from the kernel, never from the model). A job can ask for less,
 * never more:
 * - no list, or a list with `*`: the creator's tools (flagged as defaulted);
 * - an empty list, or a creator holding no tools: no tools at all;
 * - otherwise: the creator's tools the list admits (groups, globs and aliases such as
 *   `bash` → `exec` are matched as the policy matches them, a plugin id or `group:plugins`
 *   against the creator's tools from that plugin), stored under canonical names.
 * (The reference lets a plain agent-turn job with `*` take whatever its agent gets at run time;
 * Pincer does not, so that no job ever holds a tool its creator did not.)
 */
import { createToolPolicyMatcher, expandPluginGroups, normalizeToolList, normalizeToolPolicyName } from '../../../sdk/policy/index.js';

export interface CappedTools {
  toolsAllow: string[];
  toolsAllowIsDefault: boolean;
  /** Requested names the creator did not hold (reported to the model, not stored). */
  dropped: string[];
}

/** `creatorPluginTools`: the creator's plugin (non-core) tools by plugin id (`RunInfo.pluginTools`). */
export function capJobToolsAllow(requested: readonly string[] | undefined, creatorTools: readonly string[], creatorPluginTools: Record<string, string[]> = {}): CappedTools {
  const creator = [...new Set(creatorTools.map(normalizeToolPolicyName).filter(Boolean))];
  const asked = requested === undefined ? ['*'] : normalizeToolList([...requested]);
  if (asked.includes('*')) return { toolsAllow: creator, toolsAllowIsDefault: true, dropped: [] };
  if (asked.length === 0 || creator.length === 0) return { toolsAllow: [], toolsAllowIsDefault: false, dropped: asked };
  const byPlugin = new Map(Object.entries(creatorPluginTools).map(([id, tools]) => [id.trim().toLowerCase(), tools.map(normalizeToolPolicyName)]));
  const admits = createToolPolicyMatcher({ allow: expandPluginGroups(asked, { all: [...byPlugin.values()].flat(), byPlugin }) });
  const toolsAllow = creator.filter((tool) => admits(tool));
  // Whatever was asked for by exact name and not granted: the model should hear it was refused.
  const dropped = asked.filter((entry) => !entry.includes('*') && !entry.startsWith('group:') && !byPlugin.has(entry) && !toolsAllow.includes(entry));
  return { toolsAllow, toolsAllowIsDefault: false, dropped };
}
