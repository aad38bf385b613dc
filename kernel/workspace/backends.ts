/**
 * The sandbox backend registry: backend ids contributed by plugins, trimmed and
 * lower-cased, mapped to the plugin that serves them. Built from cached contributions.
 */
import type { PluginContributions } from '../host/index.js';

export interface BackendEntry {
  backendId: string;
  pluginId: string;
  capabilities: readonly string[];
}

export function normalizeBackendId(id: string): string {
  return id.trim().toLowerCase();
}

/** First plugin (in config order) to contribute an id wins; empty ids are refused. */
export function buildBackendRegistry(contributions: readonly PluginContributions[]): Map<string, BackendEntry> {
  const registry = new Map<string, BackendEntry>();
  for (const plugin of contributions) {
    for (const backend of plugin.contributes.sandboxBackends) {
      const backendId = normalizeBackendId(backend.id);
      if (!backendId || registry.has(backendId)) continue;
      registry.set(backendId, { backendId, pluginId: plugin.pluginId, capabilities: backend.capabilities });
    }
  }
  return registry;
}

/** The operator-shaped message for a backend nobody provides. */
export function missingBackendMessage(backendId: string, agentId: string, known: Iterable<string>): string {
  const available = [...known];
  // Docker is the default backend, so for any other id the other way out is to go back to it.
  const alternative = backendId === 'docker' ? `set agents.${agentId}.sandbox.mode to "off"` : `set agents.${agentId}.sandbox.backend back to "docker"`;
  return (
    `no plugin provides the sandbox backend "${backendId}". Load and enable the plugin that provides it ` +
    `(for example "sandbox-${backendId}") for agent "${agentId}", or ${alternative}.` +
    (available.length ? ` Backends available now: ${available.join(', ')}.` : ' No plugin provides any backend now.')
  );
}
