/**
 * Warnings about a run shape that names something the config has rules for but that
 * matches none of them: an agent, a group, a provider (or a model without one), a sender. A typo
 * in a flag must not be accepted in silence while the rules it meant do not apply.
 * Nothing is said when the config has no rules of that kind at all.
 */
import type { AgentConfig, PincerConfig } from '../config/schema.js';
import type { ProviderToolPolicyConfig } from '../config/tools-schema.js';
import { boundedNames, foldId, sanitizeAuditField, selectGroups, selectProvider, senderToolPolicy, WILDCARD_GROUP, type RunSender } from '../policy/index.js';

interface RunShape {
  /** The agent id the run named, if it named one. */
  agentId?: string;
  agent: AgentConfig | undefined;
  groupId?: string;
  provider?: string;
  model?: string;
  sender?: RunSender;
}

const quoted = (value: string): string => `"${sanitizeAuditField(value)}"`;
/** At most 50 keys, escaped: a config may list many groups. */
const listed = (keys: string[]): string => {
  const { names, truncated } = boundedNames(keys);
  return names.join(', ') + (truncated ? ', ...' : '');
};

function describeSender(sender: RunSender): string {
  return Object.entries(sender).filter(([, value]) => typeof value === 'string' && value.trim()).map(([field, value]) => `${field} ${quoted(value as string)}`).join(', ');
}

export function runShapeWarnings(config: PincerConfig, agentPrefix: string, run: RunShape): string[] {
  const warnings: string[] = [];
  // With agents listed an unknown id is an error (see run-shape.ts); with none, `main` is the implicit one.
  if (!run.agent && run.agentId !== undefined && foldId(run.agentId) !== 'main') {
    warnings.push(`run: agent ${quoted(run.agentId)} is not configured (agents.list is empty), so only the global rules apply to it.`);
  }
  const groupKeys = Object.keys(config.groups ?? {});
  const groups = selectGroups(config.groups, run.groupId);
  if (foldId(run.groupId) && !groups.specific && !groups.wildcard && groupKeys.length > 0) {
    warnings.push(`run: group ${quoted(run.groupId!)} matches no entry under groups (configured: ${listed(groupKeys)}; ids compare case-insensitively), so no group rule applies. Add groups.${WILDCARD_GROUP} for groups the config does not list.`);
  }
  const providerMaps: [string, Record<string, ProviderToolPolicyConfig> | undefined][] = [['tools', config.tools?.byProvider], [agentPrefix, run.agent?.tools?.byProvider]];
  const providerKeys = providerMaps.flatMap(([, map]) => Object.keys(map ?? {}));
  if (providerKeys.length > 0) {
    const matched = providerMaps.some(([prefix, map]) => selectProvider(map, prefix, run));
    if (!run.provider && run.model) {
      warnings.push(`run: model ${quoted(run.model)} names no provider, so no byProvider entry applies (configured: ${listed(providerKeys)}). Give the provider, or the model as provider/model.`);
    } else if (run.provider && !matched) {
      const what = run.model ? `provider ${quoted(run.provider)} with model ${quoted(run.model)}` : `provider ${quoted(run.provider)}`;
      warnings.push(`run: ${what} matches no byProvider entry (configured: ${listed(providerKeys)}), so no provider rule applies.`);
    }
  }
  const senderMaps = [groups.specific?.value.toolsBySender, groups.wildcard?.value.toolsBySender, config.tools?.toolsBySender].filter((map) => map && Object.keys(map).length > 0);
  const sender = run.sender && describeSender(run.sender);
  if (sender && senderMaps.length > 0 && !senderToolPolicy(groups, config.tools?.toolsBySender, run.sender)) {
    const keys = senderMaps.flatMap((map) => Object.keys(map!));
    warnings.push(`run: sender ${sender} matches no toolsBySender key in scope (${listed(keys)}), so no sender rule applies.`);
  }
  return warnings;
}
