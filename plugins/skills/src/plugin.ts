import { definePlugin, type PluginDefinition } from '../../../sdk/plugin-api.js';
import { ScanCache, WatcherPool, type SkillFs } from '../../../sdk/skills/index.js';
import { resolveSkillDirectories, type SkillDirectories } from './settings.js';
import { createFilesystemSources } from './sources.js';

export interface SkillsPluginOptions {
  /** File-system wrapper (tests count calls through it). */
  fs?: SkillFs;
  pool?: WatcherPool;
}

/**
 * The `skills` plugin: the six filesystem skill sources, one process serving every agent and
 * workspace, so each directory has one watcher however many agents use it.
 */
export function createSkillsPlugin(options: SkillsPluginOptions = {}): PluginDefinition & { readonly pool: WatcherPool } {
  let dirs: SkillDirectories = resolveSkillDirectories({});
  let log: ((message: string) => void) | undefined;
  const pool = options.pool ?? new WatcherPool({ onFallback: (why) => log?.(`skills: ${why}; skill directories without a watcher are rescanned on every list from now on`) });
  const sources = createFilesystemSources({ dirs: () => dirs, pool, scanCache: new ScanCache(), fs: options.fs });
  const plugin = definePlugin({
    id: 'skills',
    version: '0.1.0',
    skillSources: sources,
    activate({ settings, log: logger }) {
      dirs = resolveSkillDirectories(settings);
      if (dirs.maxWatchers !== undefined) pool.setMaxWatchers(dirs.maxWatchers);
      log = (message) => logger.warn(message);
    },
    async deactivate() {
      sources.forEach((source) => source.close());
      await pool.close();
    },
  });
  return Object.assign(plugin, { pool });
}
