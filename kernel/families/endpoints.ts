/**
 * The channels and nodes a run's enabled plugins declare, as the family tools route to them.
 * An id declared by two enabled plugins belongs to neither: a plugin must not be able to take
 * over another's channel (and the messages sent on it) by declaring the same id.
 */
import type { ChannelContribution, NodeContribution } from '../../protocol/index.js';
import type { PluginContributions } from '../host/index.js';

export interface ChannelEndpoint extends ChannelContribution {
  pluginId: string;
}

export interface NodeEndpoint extends NodeContribution {
  pluginId: string;
}

export interface Endpoints {
  readonly channels: ReadonlyMap<string, ChannelEndpoint>;
  readonly nodes: ReadonlyMap<string, NodeEndpoint>;
  /** One line per id claimed by several plugins (left unrouted). */
  readonly warnings: readonly string[];
}

function collect<T extends { id: string }>(
  plugins: readonly PluginContributions[],
  list: (plugin: PluginContributions) => readonly T[],
  kind: string,
): { byId: Map<string, T & { pluginId: string }>; warnings: string[] } {
  const claims = new Map<string, (T & { pluginId: string })[]>();
  for (const plugin of plugins) {
    for (const entry of list(plugin)) {
      const all = claims.get(entry.id) ?? [];
      all.push({ ...entry, pluginId: plugin.pluginId });
      claims.set(entry.id, all);
    }
  }
  const byId = new Map<string, T & { pluginId: string }>();
  const warnings: string[] = [];
  for (const [id, all] of claims) {
    const owners = [...new Set(all.map((entry) => entry.pluginId))];
    if (owners.length === 1) byId.set(id, all[0]);
    else warnings.push(`tools: ${kind} "${id}" is declared by plugins ${owners.map((o) => `"${o}"`).join(' and ')}; it is unavailable until only one of them is enabled for this agent.`);
  }
  return { byId, warnings };
}

/** Channels and nodes of the enabled plugins (`undefined` = every plugin). */
export function collectEndpoints(contributions: readonly PluginContributions[], enabled: readonly string[] | undefined): Endpoints {
  const allowed = enabled ? new Set(enabled) : undefined;
  const plugins = contributions.filter((plugin) => !allowed || allowed.has(plugin.pluginId));
  const channels = collect(plugins, (plugin) => plugin.contributes.channels ?? [], 'channel');
  const nodes = collect(plugins, (plugin) => plugin.contributes.nodes ?? [], 'node');
  return Object.freeze({ channels: channels.byId, nodes: nodes.byId, warnings: Object.freeze([...channels.warnings, ...nodes.warnings]) });
}
