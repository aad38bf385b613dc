/**
 * The embedded default: what every CLI command and `pincer serve` use with no config file.
 * The bundled tool families (fs, shell) on the local backend, the `coding` profile, and the
 * current directory as the workspace.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PincerConfig } from './schema.js';

/** Bundled plugins; paths resolve against the built package (dist/kernel/config → dist/plugins). */
export const BUNDLED_PLUGINS = ['fs', 'shell', 'sandbox-local'] as const;

function bundledModule(id: string): string {
  return fileURLToPath(new URL(`../../plugins/${id}/src/main.js`, import.meta.url));
}

/** The static manifest ships in the source tree beside the plugin (lazy activation). */
function bundledManifest(id: string): string | undefined {
  const path = fileURLToPath(new URL(`../../../plugins/${id}/pincer-plugin.json`, import.meta.url));
  return existsSync(path) ? path : undefined;
}

export function bundledPluginConfigs(): NonNullable<PincerConfig['plugins']> {
  return BUNDLED_PLUGINS.map((id) => {
    const manifest = bundledManifest(id);
    return { id, module: bundledModule(id), ...(manifest ? { manifest, lazy: true } : {}) };
  });
}

export function defaultConfig(options: { cwd?: string } = {}): PincerConfig {
  return {
    plugins: bundledPluginConfigs(),
    tools: { profile: 'coding' },
    agents: { list: [{ id: 'main', default: true, workspace: options.cwd ?? process.cwd() }] },
  };
}
