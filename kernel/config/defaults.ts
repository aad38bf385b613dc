/**
 * The embedded default: what every CLI command and `pincer serve` use with no config file.
 * The bundled tool families (fs, shell) on the local backend, the skills sources, the `coding` profile, and the
 * current directory as the workspace.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PincerConfig } from './schema.js';

/** Bundled plugins, run from the package's compiled `dist/plugins/<id>/src/main.js`. */
export const BUNDLED_PLUGINS = ['fs', 'shell', 'sandbox-local', 'skills'] as const;

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

/**
 * The static manifest ships beside the plugin's sources (lazy activation). Only the default
 * plugins start lazily: every bundled plugin's manifest declares its confinement, but one that
 * must run from the start (the tasks ledger, a scheduler, a backend's admin calls) is not made
 * lazy by having a manifest.
 */
function bundledManifest(root: string, id: string): string | undefined {
  const path = join(root, 'plugins', id, 'pincer-plugin.json');
  return (BUNDLED_PLUGINS as readonly string[]).includes(id) && existsSync(path) ? path : undefined;
}

/**
 * Pincer's own source checkout (a git work tree) inside `workspace`: someone developing Pincer
 * with an agent. Only then may the bundled plugins run from inside the workspace (the host logs
 * it loudly, and their code, `dist/` with `node_modules/` and `package.json`, becomes protected
 * paths of that workspace: workspace/plugin-code-paths.ts); an installed package inside a
 * workspace is refused, so install it elsewhere.
 */
function isOwnCheckoutInside(root: string, workspace: string): boolean {
  const rel = relative(resolve(workspace), root);
  return existsSync(join(root, '.git')) && !rel.startsWith('..') && !isAbsolute(rel);
}

/** A plugin shipped with Pincer, for an entry the kernel adds itself; runnable from inside a workspace only as bundledPluginConfigs allows. */
export function bundledPluginEntry(id: string, workspaces: readonly string[]): { module: string; allowInsideWorkspace?: true } {
  const root = packageRoot();
  return { module: bundledModule(root, id), ...(workspaces.some((w) => isOwnCheckoutInside(root, w)) ? { allowInsideWorkspace: true as const } : {}) };
}

export function bundledPluginConfigs(options: { workspace?: string } = {}): NonNullable<PincerConfig['plugins']> {
  const root = packageRoot();
  const dev = options.workspace !== undefined && isOwnCheckoutInside(root, options.workspace);
  return BUNDLED_PLUGINS.map((id) => {
    const manifest = bundledManifest(root, id);
    return { id, module: bundledModule(root, id), ...(manifest ? { manifest, lazy: true } : {}), ...(dev ? { allowInsideWorkspace: true } : {}) };
  });
}

/** Where the engine client looks for a non-default engine. */
const INHERITED_BY: Readonly<Record<string, readonly string[]>> = { 'sandbox-docker': ['DOCKER_HOST', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY'] };

/**
 * The entry for a plugin shipped in this package but not enabled by default (e.g.
 * `sandbox-docker`), for commands that need it when the config has none.
 */
export function bundledPluginConfig(id: string, options: { workspace?: string } = {}): NonNullable<PincerConfig['plugins']>[number] {
  const root = packageRoot();
  const manifest = bundledManifest(root, id);
  const inheritEnv = INHERITED_BY[id];
  const dev = options.workspace !== undefined && isOwnCheckoutInside(root, options.workspace);
  return {
    id,
    module: bundledModule(root, id),
    ...(manifest ? { manifest, lazy: true } : {}),
    ...(inheritEnv ? { inheritEnv: [...inheritEnv] } : {}),
    ...(dev ? { allowInsideWorkspace: true } : {}),
  };
}

export function defaultConfig(options: { cwd?: string } = {}): PincerConfig {
  const workspace = options.cwd ?? process.cwd();
  return {
    plugins: bundledPluginConfigs({ workspace }),
    tools: { profile: 'coding' },
    agents: { list: [{ id: 'main', default: true, workspace }] },
  };
}
