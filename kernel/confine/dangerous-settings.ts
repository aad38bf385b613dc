/**
 * Config entries that run something outside the sandbox it would otherwise get, for
 * `pincer config check` to name as dangerous overrides (docs/confinement.md).
 */
import type { PluginConfig } from '../host/config.js';
import { bundledPluginId } from './declaration.js';

export interface ConfinementWarning {
  /** Config path of the setting, e.g. `plugins[2].settings.exec.mode`. */
  path: string;
  message: string;
}

export function confinementWarnings(plugins: readonly Partial<PluginConfig>[] = []): ConfinementWarning[] {
  const warnings: ConfinementWarning[] = [];
  plugins.forEach((p, i) => {
    if (p.dangerouslyUnconfined) {
      warnings.push({ path: `plugins[${i}].dangerouslyUnconfined`, message: `plugin "${p.id}" runs without the bubblewrap sandbox its manifest declares: it can read and write whatever the kernel's user can` });
    }
    const isLocal = p.id === 'sandbox-local' || (p.module !== undefined && bundledPluginId(p as PluginConfig) === 'sandbox-local');
    const exec = (p.settings as { exec?: { mode?: unknown } } | undefined)?.exec;
    if (isLocal && exec?.mode === 'danger-full-access') {
      warnings.push({
        path: `plugins[${i}].settings.exec.mode`,
        message: 'exec on the local backend runs on the whole host as the kernel\'s user: protected paths (the loaded config, .git, .pincer) are NOT enforced against commands, which can also read the kernel\'s environment',
      });
    }
  });
  return warnings;
}
