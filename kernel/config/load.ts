/**
 * Config discovery and loading: an explicit path, else `$PINCER_CONFIG`, else
 * `./pincer.config.json`, else the embedded default. Relative plugin modules, manifests,
 * working directories, commands and workspaces resolve against the config file's directory,
 * not the process's.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { defaultConfig } from './defaults.js';
import type { PincerConfig } from './schema.js';
import { loadConfigFile } from './validate.js';

export const DEFAULT_CONFIG_FILE = 'pincer.config.json';

/** The file a CLI run would use, or `undefined` for the embedded default. */
export function discoverConfigPath(path: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (path) return resolve(cwd, path);
  if (env.PINCER_CONFIG) return resolve(cwd, env.PINCER_CONFIG);
  const local = resolve(cwd, DEFAULT_CONFIG_FILE);
  return existsSync(local) ? local : undefined;
}

function resolveFrom(base: string, path: string | undefined): string | undefined {
  return path === undefined || isAbsolute(path) ? path : resolve(base, path);
}

/**
 * Rebase relative paths of a loaded config onto its own directory. A `command` plugin runs in
 * that directory (or its `cwd`, rebased), so the relative paths of its argv resolve there too.
 */
export function rebaseConfigPaths(config: PincerConfig, base: string): PincerConfig {
  return {
    ...config,
    plugins: config.plugins?.map((plugin) => {
      const cwd = resolveFrom(base, plugin.cwd) ?? (plugin.command ? base : undefined);
      return { ...plugin, module: resolveFrom(base, plugin.module), manifest: resolveFrom(base, plugin.manifest), ...(cwd ? { cwd } : {}) };
    }),
    agents: config.agents && {
      ...config.agents,
      defaults: config.agents.defaults && { ...config.agents.defaults, workspace: resolveFrom(base, config.agents.defaults.workspace) },
      list: config.agents.list?.map((agent) => ({ ...agent, workspace: resolveFrom(base, agent.workspace) })),
    },
  };
}

/** Load the discovered config (validated, paths rebased), or the embedded default. */
export async function loadConfig(path?: string, options: { cwd?: string } = {}): Promise<PincerConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = discoverConfigPath(path, cwd);
  if (!file) return defaultConfig({ cwd });
  return rebaseConfigPaths(await loadConfigFile(file), dirname(file));
}
