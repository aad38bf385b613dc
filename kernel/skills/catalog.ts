/**
 * The kernel's copy of every skill source's list. Lists are fetched with `skills/list` (per
 * workspace for workspace-scoped sources) when a run's skills are refreshed, and again when
 * a source announces a new version or its plugin restarted. Each change bumps the version of
 * the workspace it concerns (or the global one), which is all a run's snapshot compares:
 * reading skills for a run never sends a message and never touches the disk.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SkillsListChangedParams, SkillsListResult, SkillsLoadOptions } from '../../protocol/index.js';
import type { HostLogger, PluginHost } from '../host/index.js';
import type { ListedSource } from './merge.js';
import { SkillVersions } from './versions.js';

/** Lists of one source in a row while it keeps announcing changes; then it stays stale until the next. */
const MAX_LIST_ROUNDS = 3;

interface SourceState extends ListedSource {
  scope: 'global' | 'workspace';
  workspaceDir?: string;
  error?: string;
  /** The plugin process that listed it: a restarted plugin lost its watchers. */
  pid?: number;
  stale: boolean;
  listing?: Promise<void>;
  /** A change was announced while a list was on its way: its answer may predate the change. */
  relist?: boolean;
  toldUnwatched?: boolean;
}

/** How current one source's list is. */
export interface SourceStatus {
  pluginId: string;
  label: string;
  rank: number;
  /** `current`: listed and watched; `unwatched`: current as of the last refresh only. */
  state: 'current' | 'unwatched' | 'stale' | 'failed' | 'unlisted';
  detail?: string;
}

/** One run's view of its sources. */
export interface SourcesView {
  sources: readonly (ListedSource & { error?: string })[];
  status: SourceStatus[];
  version: number;
}

export interface RefreshTarget {
  plugins: readonly string[] | undefined;
  workspaceDir: string;
}

export class SkillCatalog {
  readonly versions = new SkillVersions();
  readonly #states = new Map<string, SourceState>();
  readonly #canonical = new Map<string, string>();
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: (() => void)[];

  constructor(
    private readonly host: PluginHost,
    private readonly load: SkillsLoadOptions,
    private readonly log: HostLogger,
  ) {
    this.#unsubscribe = [host.onSkillsChanged((pluginId, change) => this.#announced(pluginId, change)), host.onDidChange(() => this.#hostChanged())];
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#unsubscribe.forEach((off) => off());
  }

  /** Changes with any plugin's state or contributions (sources may have come or gone). */
  get contributionsVersion(): number {
    return this.host.contributionsVersion;
  }

  /** The workspace's real path, as skill directories are reported (resolved on refresh). */
  canonicalWorkspace(workspaceDir: string): string | undefined {
    return this.#canonical.get(workspaceDir);
  }

  /** Lists what is missing, stale, failed or unwatched for these runs; nothing when all is current. */
  async refresh(targets: readonly RefreshTarget[]): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const target of targets) {
      if (!this.#canonical.has(target.workspaceDir)) this.#canonical.set(target.workspaceDir, canonical(target.workspaceDir));
      for (const state of this.#statesFor(target.plugins, target.workspaceDir)) {
        if (!state.result || state.stale || state.error || state.result.watch !== 'native') pending.push(this.#list(state));
      }
    }
    await Promise.all(pending);
  }

  /** In memory: the lists of the sources a run with these plugins and workspace uses. */
  view(plugins: readonly string[] | undefined, workspaceDir: string): SourcesView {
    const states = this.#statesFor(plugins, workspaceDir);
    const status = states.map((s): SourceStatus => {
      const base = { pluginId: s.pluginId, label: s.label, rank: s.rank };
      if (s.error) return { ...base, state: 'failed', detail: s.error };
      if (!s.result) return { ...base, state: 'unlisted' };
      if (s.stale) return { ...base, state: 'stale' };
      return s.result.watch === 'native' ? { ...base, state: 'current' } : { ...base, state: 'unwatched', detail: s.result.watch };
    });
    return { sources: states, status, version: this.versions.get(workspaceDir) };
  }

  #statesFor(plugins: readonly string[] | undefined, workspaceDir: string): SourceState[] {
    const out: SourceState[] = [];
    for (const { pluginId, contributes } of this.host.contributions()) {
      if (plugins && !plugins.includes(pluginId)) continue;
      for (const source of contributes.skillSources) {
        const scope = source.scope ?? 'global';
        const ws = scope === 'workspace' ? workspaceDir : undefined;
        const key = JSON.stringify([pluginId, source.label, ws ?? null]);
        let state = this.#states.get(key);
        if (!state) this.#states.set(key, (state = { pluginId, label: source.label, rank: source.rank, scope, workspaceDir: ws, stale: false }));
        state.rank = source.rank;
        out.push(state);
      }
    }
    return out;
  }

  #list(state: SourceState): Promise<void> {
    state.listing ??= this.#listSettled(state).finally(() => (state.listing = undefined));
    return state.listing;
  }

  /** Lists until no change was announced meanwhile; a source that keeps changing stays stale. */
  async #listSettled(state: SourceState): Promise<void> {
    for (let round = 0; round < MAX_LIST_ROUNDS; round++) {
      state.relist = false;
      await this.#fetch(state);
      if (!state.relist) return;
    }
  }

  async #fetch(state: SourceState): Promise<void> {
    let result: SkillsListResult | undefined;
    let error: string | undefined;
    try {
      result = await this.host.listSkills(state.pluginId, { label: state.label, ...(state.workspaceDir ? { workspaceDir: state.workspaceDir } : {}), load: this.load });
    } catch (cause) {
      error = (cause as Error)?.message ?? String(cause);
    }
    const changed = error !== state.error || state.stale || result?.version !== state.result?.version;
    state.pid = this.host.pluginStatus(state.pluginId).pid;
    state.stale = state.relist === true;
    state.error = error;
    if (result) state.result = result;
    if (error) this.log({ level: 'warn', source: 'skills', message: `skill source "${state.label}" of plugin "${state.pluginId}" failed to list: ${error}` });
    if (result && result.watch !== 'native' && !state.toldUnwatched) {
      state.toldUnwatched = true;
      this.log({ level: 'warn', source: 'skills', message: `skill source "${state.label}" of plugin "${state.pluginId}" is not watched (${result.watch}): its skills are refreshed only by kernel.skills.refresh(), which hosts should call before each run` });
    }
    if (changed) this.#bump(state);
  }

  #bump(state: SourceState): void {
    this.versions.bump(state.workspaceDir);
    this.#listeners.forEach((listener) => listener());
  }

  #announced(pluginId: string, change: SkillsListChangedParams): void {
    for (const state of this.#states.values()) {
      if (state.pluginId !== pluginId || state.label !== change.label || (state.workspaceDir ?? undefined) !== change.workspaceDir) continue;
      if (state.result?.version === change.version) continue;
      state.stale = true;
      if (state.listing) state.relist = true;
      this.#bump(state);
      void this.#list(state);
    }
  }

  /** A plugin that restarted lost its watchers: list its sources again (only those listed before). */
  #hostChanged(): void {
    for (const state of this.#states.values()) {
      if (!state.result || state.listing) continue;
      const status = this.host.pluginStatus(state.pluginId);
      if (status.pid === state.pid) continue;
      state.stale = true;
      this.#bump(state);
      if (status.state === 'ready') void this.#list(state);
    }
  }
}

function canonical(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
