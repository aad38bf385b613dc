/**
 * Backend ids that would be refused at a session's first call (backends.ts), found up front as
 * config findings: a bundled id (`local`, `docker`, `ssh`) that another enabled plugin declares,
 * or an id two enabled plugins declare, with no `backendPlugins` entry choosing one. `pincer
 * config check` judges the plugins' static manifests; the kernel judges the live contributions
 * at start. Each finding names the config path of the plugin list and every plugin involved.
 */
import { loadManifest, manifestPath } from '../host/manifest.js';
import { PluginConfigSchema } from '../host/config.js';
import type { ConfigIssue } from '../config/errors.js';
import type { PincerConfig } from '../config/schema.js';
import { findById } from '../policy/index.js';
import { BUNDLED_BACKEND_PLUGINS, duplicateMessage, intruderMessage, normalizeBackendId } from './backends.js';

/** The backend ids one plugin declares. */
export interface DeclaredBackends {
  pluginId: string;
  backends: readonly string[];
}

/** One plugin list of the config (an agent's own, the defaults', or every plugin) and who uses it. */
interface Scope {
  path: string;
  agents: string[];
  plugins: readonly string[] | undefined;
}

function scopes(config: PincerConfig): Scope[] {
  const list = config.agents?.list ?? [];
  const defaults = config.agents?.defaults?.plugins;
  const shared: Scope = { path: defaults ? 'agents.defaults.plugins' : 'plugins', agents: [], plugins: defaults };
  const out: Scope[] = [];
  list.forEach((agent, i) => {
    if (agent.plugins) out.push({ path: `agents.list[${i}].plugins`, agents: [agent.id], plugins: agent.plugins });
    else shared.agents.push(agent.id);
  });
  if (list.length === 0) shared.agents.push('main');
  return shared.agents.length > 0 ? [shared, ...out] : out;
}

export function backendConflicts(config: PincerConfig, declared: readonly DeclaredBackends[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const scope of scopes(config)) {
    const enabled = scope.plugins ? new Set(scope.plugins) : undefined;
    const byBackend = new Map<string, string[]>();
    for (const { pluginId, backends } of declared) {
      if (enabled && !enabled.has(pluginId)) continue;
      for (const id of new Set(backends.map(normalizeBackendId))) byBackend.set(id, [...(byBackend.get(id) ?? []), pluginId]);
    }
    const who = scope.agents.length === 1 ? `agent "${scope.agents[0]}"` : `agents ${scope.agents.map((a) => `"${a}"`).join(', ')}`;
    for (const [backendId, plugins] of byBackend) {
      // An operator's explicit choice settles the id (the router checks the named plugin declares it).
      if (findById(config.backendPlugins, backendId)) continue;
      const bundled = BUNDLED_BACKEND_PLUGINS.get(backendId);
      const intruders = bundled ? plugins.filter((id) => id !== bundled) : [];
      if (intruders.length > 0) issues.push({ path: scope.path, message: intruderMessage(intruders, backendId, bundled!, who) });
      else if (plugins.length > 1) issues.push({ path: scope.path, message: duplicateMessage(plugins, backendId, who) });
    }
  }
  return issues;
}

/** Backend ids each configured plugin's static manifest declares (plugins without one are unknown here). */
export function backendsFromManifests(config: PincerConfig): DeclaredBackends[] {
  const out: DeclaredBackends[] = [];
  for (const raw of config.plugins ?? []) {
    const parsed = PluginConfigSchema.safeParse(raw);
    const file = parsed.success ? manifestPath(parsed.data) : undefined;
    if (!parsed.success || !file) continue;
    try {
      out.push({ pluginId: raw.id, backends: loadManifest(parsed.data, file).contributes.sandboxBackends.map((b) => b.id) });
    } catch {
      // An unreadable manifest is the host's error to report.
    }
  }
  return out;
}
