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
 * Whether an argv names a file or folder relative to `base` (`./run.sh`, `audit_plugin.py`). A
 * program without a `/` is looked up on PATH, never in the working directory, so it does not count.
 */
function namesRelativePath(argv: readonly string[], base: string): boolean {
  return argv.some((arg, i) => arg !== '' && !isAbsolute(arg) && (i > 0 || arg.includes('/')) && existsSync(resolve(base, arg)));
}

/**
 * Rebase relative paths of a loaded config onto its own directory. A `command` plugin whose argv
 * names a path relative to that directory runs there (or in its `cwd`, rebased), so those paths
 * resolve. One with only absolute paths and program names does not: it runs in its data
 * directory, since the config's folder is often an agent's workspace, where no plugin may run.
 */
export function rebaseConfigPaths(config: PincerConfig, base: string): PincerConfig {
  return {
    ...config,
    plugins: config.plugins?.map((plugin) => {
      const relativeArgv = plugin.command !== undefined && namesRelativePath([...plugin.command, ...(plugin.args ?? [])], base);
      const cwd = resolveFrom(base, plugin.cwd) ?? (relativeArgv ? base : undefined);
      return { ...plugin, module: resolveFrom(base, plugin.module), manifest: resolveFrom(base, plugin.manifest), ...(cwd ? { cwd } : {}) };
    }),
    agents: config.agents && {
      ...config.agents,
      defaults: config.agents.defaults && { ...config.agents.defaults, workspace: resolveFrom(base, config.agents.defaults.workspace) },
      list: config.agents.list?.map((agent) => ({ ...agent, workspace: resolveFrom(base, agent.workspace) })),
    },
    ...(config.audit?.dir ? { audit: { ...config.audit, dir: resolveFrom(base, config.audit.dir) } } : {}),
  };
}

/** Load the discovered config (validated, paths rebased), or the embedded default. */
export async function loadConfig(path?: string, options: { cwd?: string } = {}): Promise<PincerConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = discoverConfigPath(path, cwd);
  if (!file) return defaultConfig({ cwd });
  return rebaseConfigPaths(await loadConfigFile(file), dirname(file));
}
