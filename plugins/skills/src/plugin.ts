import type { PluginConfinementInput } from '../../../protocol/v1/confinement.js';
import { definePlugin, type PluginDefinition } from '../../../sdk/plugin-api.js';
import { ScanCache, WatcherPool, type SkillFs } from '../../../sdk/skills/index.js';
import { resolveSkillDirectories, type SkillDirectories } from './settings.js';
import { createFilesystemSources } from './sources.js';

/**
 * What the skills plugin reads, and nothing to write: the skill roots outside a workspace
 * (`skills.load.extraDirs`, the managed and personal directories, as the kernel computes them),
 * every agent workspace (its `skills/` and `.agents/skills/`), and a configured `bundledDir`
 * (the default one ships in the package, which it sees as its code). `HOME` is the operator's,
 * not the sandbox's (its data directory): the default managed and personal directories are
 * named from it.
 */
export const SKILLS_CONFINEMENT = {
  filesystem: [
    { path: '${skillRoots}', access: 'ro' },
    { path: '${workspace}', access: 'ro' },
    { path: '${settings.bundledDir}', access: 'ro' },
  ],
  network: 'none',
  spawn: false,
  env: ['HOME'],
} as const satisfies PluginConfinementInput;

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
    confinement: SKILLS_CONFINEMENT,
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
