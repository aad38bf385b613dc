/**
 * Fail closed on required plugins: while a plugin an agent marks `required` (a policy hook
 * provider, say) is failed or missing, that agent's calls are vetoed, never run without it.
 */
import type { TrustedToolPolicy } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import type { PincerConfig } from '../config/schema.js';

/** Whether any plugin enabled for the agent (all, when `enabled` is undefined) is marked required, or enabled but not configured. */
export function hasRequiredPlugin(config: PincerConfig, enabled: readonly string[] | undefined): boolean {
  const plugins = config.plugins ?? [];
  if (enabled?.some((id) => !plugins.some((plugin) => plugin.id === id))) return true;
  return plugins.some((plugin) => plugin.required === true && (!enabled || enabled.includes(plugin.id)));
}

export function requiredPluginsPolicy(host: PluginHost, enabled: readonly string[] | undefined): TrustedToolPolicy {
  return {
    id: 'kernel.required-plugins',
    pluginId: 'kernel',
    evaluate() {
      const health = host.requiredPluginsHealthy(enabled);
      if (health.healthy) return undefined;
      const problems = health.problems.map((p) => `"${p.pluginId}" is ${p.state}: ${p.reason}`).join('; ');
      return {
        allow: false,
        blockReason: `Tool calls are blocked: a required plugin is not available (${problems}). An operator must fix or restart it (see \`pincer plugins\`).`,
      };
    },
  };
}
