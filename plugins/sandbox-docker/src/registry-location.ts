import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { JsonFileSandboxRegistry, MemorySandboxRegistry, type SandboxRegistry } from '../../../sdk/sandbox/registry.js';

/** File name of the registry inside the plugin's data directory. */
export const REGISTRY_FILE = 'containers.json';

/**
 * Where the docker backend keeps its registry: `registryPath` when set (relative to the working
 * directory), else `containers.json` in the plugin's private data directory, which the kernel
 * hands every plugin as `$PINCER_PLUGIN_DATA_DIR`. Without either (a plugin run outside a
 * kernel), last use lives in memory only.
 */
export function dockerRegistryPath(registryPath: string | undefined, env: NodeJS.ProcessEnv, cwd = process.cwd()): string | undefined {
  if (registryPath) return resolve(cwd, registryPath);
  const dataDir = env.PINCER_PLUGIN_DATA_DIR;
  return dataDir && isAbsolute(dataDir) ? join(dataDir, REGISTRY_FILE) : undefined;
}

export function openDockerRegistry(registryPath: string | undefined, env: NodeJS.ProcessEnv): SandboxRegistry {
  const file = dockerRegistryPath(registryPath, env);
  return file ? new JsonFileSandboxRegistry(file) : new MemorySandboxRegistry();
}

/**
 * The data directory the kernel gives plugin `pluginId`: `$PINCER_STATE_DIR/plugins/<id>`, the
 * state directory defaulting to `~/.pincer/state`. The CLI uses it to read the same registry
 * the running plugin writes.
 */
export function pluginDataDir(pluginId: string, env: NodeJS.ProcessEnv): string {
  const state = env.PINCER_STATE_DIR ? resolve(env.PINCER_STATE_DIR) : join(env.HOME ?? homedir(), '.pincer', 'state');
  return join(state, 'plugins', pluginId);
}
