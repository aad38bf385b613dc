/**
 * The embedded default: what every CLI command and `pincer serve` use with no config file.
 * The bundled tool families (fs, shell) on the local backend, the `coding` profile, and the
 * current directory as the workspace.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PincerConfig } from './schema.js';

/** Bundled plugins, run from the package's compiled `dist/plugins/<id>/src/main.js`. */
export const BUNDLED_PLUGINS = ['fs', 'shell', 'sandbox-local'] as const;

/**
 * The package root (the folder with package.json), found by walking up: this module runs
 * from `dist/kernel/config/` when built and from `kernel/config/` under a TS test runner.
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function bundledModule(root: string, id: string): string {
  return join(root, 'dist', 'plugins', id, 'src', 'main.js');
}

/** The static manifest ships beside the plugin's sources (lazy activation). */
function bundledManifest(root: string, id: string): string | undefined {
  const path = join(root, 'plugins', id, 'pincer-plugin.json');
  return existsSync(path) ? path : undefined;
}

/** The compiled entry of a plugin shipped with Pincer (for entries the kernel adds itself). */
export function bundledPluginModule(id: string): string {
  return bundledModule(packageRoot(), id);
}

export function bundledPluginConfigs(): NonNullable<PincerConfig['plugins']> {
  const root = packageRoot();
  return BUNDLED_PLUGINS.map((id) => {
    const manifest = bundledManifest(root, id);
    return { id, module: bundledModule(root, id), ...(manifest ? { manifest, lazy: true } : {}) };
  });
}

export function defaultConfig(options: { cwd?: string } = {}): PincerConfig {
  return {
    plugins: bundledPluginConfigs(),
    tools: { profile: 'coding' },
    agents: { list: [{ id: 'main', default: true, workspace: options.cwd ?? process.cwd() }] },
  };
}
