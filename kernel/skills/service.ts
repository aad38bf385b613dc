/**
 * The kernel's skills: the catalog of source lists, the per-run snapshots, and what the
 * kernel exposes (`kernel.skills`, `toolSet.skills`, the read-only mounts of the local backend).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SkillsLoadOptions } from '../../protocol/index.js';
import type { PincerConfig } from '../config/schema.js';
import type { HostLogger, PluginHost } from '../host/index.js';
import type { RunContext } from '../policy/index.js';
import type { ResolvedRun, RunResolver } from '../assembly/run-shape.js';
import type { SessionPlacement } from '../workspace/router.js';
import { SkillCatalog } from './catalog.js';
import { dispatchSkillCommand, type Execute } from './dispatch.js';
import { SkillSnapshots, type SkillSnapshot } from './snapshot.js';
import type { RunSkills } from './types.js';

/** `toolSet.skills`: the run's skills, and its skill commands run through the run's gate. */
export interface ToolSetSkills extends RunSkills {
  dispatch(name: string, args: string, options?: { signal?: AbortSignal; toolCallId?: string }): ReturnType<Execute>;
}

/** `kernel.skills`. */
export interface KernelSkills {
  /**
   * Lists the skill sources of one run (or of every configured agent): what was never listed,
   * changed, failed, or is not watched. Resolves at once, with no message sent, when every
   * source is watched and unchanged. Hosts call it after `start()` and before each run.
   */
  refresh(run?: RunContext): Promise<void>;
  /** The skills of a run, as `toolSet.skills` has them (without assembling tools). */
  forRun(run?: RunContext): RunSkills;
  /** A source changed (a new version, a failure, a restart). */
  onChange(listener: () => void): () => void;
}

export interface SkillsServiceDeps {
  host: PluginHost;
  config: PincerConfig;
  resolveRun: RunResolver;
  cwd: string;
  configPath?: string;
  log: HostLogger;
}

function loadOptions(config: PincerConfig, base: string): SkillsLoadOptions {
  const absolute = (dirs: readonly string[] | undefined) => dirs?.map((dir) => (isAbsolute(dir) ? dir : resolve(base, dir)));
  const load = config.skills?.load;
  const limits = config.skills?.limits;
  return {
    ...(load?.extraDirs ? { extraDirs: absolute(load.extraDirs) } : {}),
    ...(load?.allowSymlinkTargets ? { allowSymlinkTargets: absolute(load.allowSymlinkTargets) } : {}),
    ...(load?.watch !== undefined ? { watch: load.watch } : {}),
    ...(limits ? { limits: { maxCandidatesPerRoot: limits.maxCandidatesPerRoot, maxSkillsLoadedPerSource: limits.maxSkillsLoadedPerSource, maxSkillFileBytes: limits.maxSkillFileBytes } } : {}),
  };
}

export function createSkillsService(deps: SkillsServiceDeps) {
  // Relative skill directories are the config file's, like its other paths.
  const base = deps.configPath ? dirname(resolve(deps.cwd, deps.configPath)) : deps.cwd;
  const catalog = new SkillCatalog(deps.host, loadOptions(deps.config, base), deps.log);
  const snapshots = new SkillSnapshots(catalog, deps.config);
  const told = new Set<string>();
  const prepareConfigs = new WeakMap<SkillSnapshot, Record<string, unknown>>();

  const snapshotOf = (run: Pick<ResolvedRun, 'agentId' | 'enabledPlugins' | 'placement'>): SkillSnapshot => {
    const snapshot = snapshots.get(run);
    for (const c of snapshot.collisions) {
      const key = JSON.stringify(c);
      if (told.has(key)) continue;
      told.add(key);
      deps.log({ level: 'info', source: 'skills', message: `skill "${c.name}" of ${c.winner.source} (${c.winner.path}) overrides the one of ${c.shadowed.source} (${c.shadowed.path})` });
    }
    return snapshot;
  };

  // As the snapshot keys it: a run without a workspace has no workspace skills.
  const target = (r: ResolvedRun) => ({ plugins: r.enabledPlugins, workspaceDir: r.placement.workspaceDir ?? '' });
  const agents = (): ResolvedRun[] => {
    const ids = (deps.config.agents?.list ?? []).map((agent) => agent.id);
    return (ids.length > 0 ? ids : [undefined]).map((agentId) => deps.resolveRun({ agentId }));
  };

  const api: KernelSkills = {
    async refresh(run) {
      const runs = run ? [deps.resolveRun(run)] : agents();
      await catalog.refresh(runs.map(target));
    },
    forRun: (run = {}) => snapshotOf(deps.resolveRun(run)),
    onChange: (listener) => catalog.onChange(listener),
  };

  return {
    api,
    /** `toolSet.skills` for a resolved run. */
    forToolSet(run: ResolvedRun, execute: Execute): ToolSetSkills {
      const snapshot = snapshotOf(run);
      // Not current (never listed, failed, or unwatched): list in the background, so the next
      // run is current even when the host never calls refresh(); this one says it is not.
      if (!snapshot.current) void catalog.refresh([target(run)]).catch(() => undefined);
      const { mounts: _mounts, ...skills } = snapshot;
      return Object.freeze({ ...skills, dispatch: (name: string, args: string, options?: { signal?: AbortSignal; toolCallId?: string }) => dispatchSkillCommand(snapshot.skills, execute, name, args, options) });
    },
    /** Extra `sandbox/prepare` config of a local-backend session: read-only mounts of skills outside its workspace. */
    prepareConfig(placement: SessionPlacement): Record<string, unknown> | undefined {
      if (placement.backendId !== 'local') return undefined;
      const snapshot = snapshotOf({ agentId: placement.agentId, enabledPlugins: placement.backendPlugins, placement });
      if (snapshot.mounts.length === 0) return undefined;
      let config = prepareConfigs.get(snapshot);
      if (!config) prepareConfigs.set(snapshot, (config = { readOnlyMounts: snapshot.mounts }));
      return config;
    },
    close: () => catalog.close(),
  };
}

export type SkillsService = ReturnType<typeof createSkillsService>;
