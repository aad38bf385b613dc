/**
 * Which plugin serves a session's sandbox backend. Only plugins enabled for the session's
 * agent count; the bundled ids (`local`, `docker`, `ssh`) belong to the bundled plugins
 * unless `backendPlugins` names another; an id two plugins declare is a config error.
 * Backend ids compare trimmed and lower-cased. The same conflicts are reported before any call
 * by `pincer config check` and at kernel start (backend-conflicts.ts).
 */
import type { PluginContributions } from '../host/index.js';
import { WorkspaceRoutingError } from './errors.js';

/** The bundled backend ids and the plugin each belongs to. */
export const BUNDLED_BACKEND_PLUGINS: ReadonlyMap<string, string> = new Map([
  ['local', 'sandbox-local'],
  ['docker', 'sandbox-docker'],
  ['ssh', 'sandbox-ssh'],
]);

export function normalizeBackendId(id: string): string {
  return id.trim().toLowerCase();
}

/** What the router knows of a session's backend choice. */
export interface BackendChoice {
  agentId: string;
  backendId: string;
  /** Plugins enabled for the agent; `undefined` = every configured plugin. */
  backendPlugins?: readonly string[];
  /** The plugin `backendPlugins.<id>` names, if any. */
  backendPlugin?: string;
}

/** The operator-shaped message for a backend nobody provides. */
function missingBackendMessage(backendId: string, agentId: string, known: Iterable<string>): string {
  const available = [...known];
  // Docker is the default backend, so for any other id the other way out is to go back to it.
  const alternative = backendId === 'docker' ? `set agents.${agentId}.sandbox.mode to "off"` : `set agents.${agentId}.sandbox.backend back to "docker"`;
  return (
    `no plugin provides the sandbox backend "${backendId}". Load and enable the plugin that provides it ` +
    `(for example "sandbox-${backendId}") for agent "${agentId}", or ${alternative}.` +
    (available.length ? ` Backends available now: ${available.join(', ')}.` : ' No plugin provides any backend now.')
  );
}

/** A plugin that claims a bundled backend id without `backendPlugins` naming it. */
export function intruderMessage(intruders: readonly string[], backendId: string, bundled: string, agents: string): string {
  return `plugin ${intruders.map((id) => `"${id}"`).join(', ')} declares the bundled sandbox backend "${backendId}", which belongs to "${bundled}"; it serves no session unless backendPlugins.${backendId} names it. Remove it from the plugins of ${agents}, or name the plugin you trust in backendPlugins.${backendId}.`;
}

/** Two or more plugins declaring one backend id. */
export function duplicateMessage(declaring: readonly string[], backendId: string, agents: string): string {
  return `plugins ${declaring.map((id) => `"${id}"`).join(' and ')} both declare the sandbox backend "${backendId}" for ${agents}; a backend id must have one provider. Enable one of them, or name it in backendPlugins.${backendId}.`;
}

function refuse(message: string): never {
  throw new WorkspaceRoutingError('IO_ERROR', message);
}

/** The plugin that serves the choice's backend, or a config error that names the plugins involved. */
export function resolveBackendPlugin(contributions: readonly PluginContributions[], choice: BackendChoice): string {
  const backendId = normalizeBackendId(choice.backendId);
  const enabled = choice.backendPlugins ? new Set(choice.backendPlugins) : undefined;
  const usable = contributions.filter((plugin) => !enabled || enabled.has(plugin.pluginId));
  const declaring = usable.filter((plugin) => plugin.contributes.sandboxBackends.some((backend) => normalizeBackendId(backend.id) === backendId)).map((plugin) => plugin.pluginId);
  const agent = `agent "${choice.agentId}"`;
  if (choice.backendPlugin) {
    if (declaring.includes(choice.backendPlugin)) return choice.backendPlugin;
    refuse(`backendPlugins.${backendId} names plugin "${choice.backendPlugin}", which is not enabled for ${agent}, not running, or does not declare the backend "${backendId}".`);
  }
  const bundled = BUNDLED_BACKEND_PLUGINS.get(backendId);
  const intruders = bundled ? declaring.filter((id) => id !== bundled) : [];
  if (intruders.length > 0) refuse(intruderMessage(intruders, backendId, bundled!, agent));
  if (declaring.length > 1) refuse(duplicateMessage(declaring, backendId, agent));
  if (declaring.length === 0) {
    const known = new Set(usable.flatMap((plugin) => plugin.contributes.sandboxBackends.map((backend) => normalizeBackendId(backend.id))));
    refuse(missingBackendMessage(backendId, choice.agentId, known));
  }
  return declaring[0];
}
