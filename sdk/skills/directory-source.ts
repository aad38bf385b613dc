/**
 * A skill source served from directories: what the bundled `skills` plugin uses for its six
 * sources, and what any plugin uses to contribute its own skill directories. A list is kept per
 * (workspace, load settings) and rescanned only when a watcher saw a change: an unchanged list
 * is answered from memory, without a single file-system call. The rescan runs as soon as the
 * change settles, and `skills/listChanged` is sent when the list's version moved.
 */
import type { SkillsListParams, SkillsListResult } from '../../protocol/index.js';
import type { HandlerContext, SkillSourceChange, SkillSourceDefinition } from '../plugin/types.js';
import type { ContainmentPolicy } from './discovery/containment.js';
import { resolveSkillLimits } from './limits.js';
import { listVersion, loadSkillSource, type SourceRoot } from './load-source.js';
import { ScanCache } from './scanner/scan-cache.js';
import { nodeSkillFs, type SkillFs } from './skill-fs.js';
import { WatcherPool, type WatchLease, type WatchSignal } from './watch/watcher-pool.js';

export interface DirectorySourceOptions {
  label: string;
  rank: number;
  scope?: 'global' | 'workspace';
  /** The directories of one list request (a workspace-scoped source reads `params.workspaceDir`). */
  roots(params: SkillsListParams): SourceRoot[];
  policy(params: SkillsListParams): ContainmentPolicy;
  /** Skip skills with a critical scanner finding (workspace, project, extra sources). */
  blockCritical: boolean;
  fs?: SkillFs;
  /** Shared by every source of the process: one watcher per directory. */
  pool?: WatcherPool;
  scanCache?: ScanCache;
  /** PATH to probe `requires.bins` on; default the process's. */
  path?: string;
}

type Mode = NonNullable<SkillsListResult['watch']>;

interface ListState {
  params: SkillsListParams;
  result?: SkillsListResult;
  dirty: boolean;
  mode: Mode;
  leases: WatchLease[];
  scanning?: Promise<void>;
}

export interface DirectorySkillSource extends SkillSourceDefinition {
  /** Rescans done so far (all lists). */
  readonly rescans: number;
  close(): void;
}

export function createDirectorySkillSource(options: DirectorySourceOptions): DirectorySkillSource {
  const fs = options.fs ?? nodeSkillFs;
  const pool = options.pool ?? new WatcherPool();
  const scanCache = options.scanCache ?? new ScanCache();
  const states = new Map<string, ListState>();
  let notify: ((change: SkillSourceChange) => void) | undefined;
  let rescans = 0;

  async function rescan(state: ListState, announce: boolean): Promise<void> {
    state.dirty = false;
    rescans += 1;
    const roots = options.roots(state.params);
    // Watch first, scan second: a change made while the scan runs is then seen, never lost.
    await Promise.all(watchRoots(state, roots));
    const loaded = await loadSkillSource(roots, {
      fs,
      limits: resolveSkillLimits(state.params.load?.limits),
      policy: options.policy(state.params),
      blockCritical: options.blockCritical,
      scanCache,
      path: options.path ?? process.env.PATH,
    });
    // Without change notifications every list must rescan, or it could serve a stale list.
    if (state.mode !== 'native') state.dirty = true;
    const previous = state.result?.version;
    const version = listVersion([loaded, state.mode]);
    state.result = { version, skills: loaded.skills, skipped: loaded.skipped, watch: state.mode };
    // A list the kernel asked for is its answer; only a change found on our own is announced.
    if (announce && previous !== undefined && previous !== version) notify?.({ version, ...(state.params.workspaceDir ? { workspaceDir: state.params.workspaceDir } : {}) });
  }

  /** Subscribes the list's roots (existing or not yet); returns when each watcher is ready. */
  function watchRoots(state: ListState, roots: readonly SourceRoot[]): Promise<void>[] {
    const old = state.leases;
    state.leases = [];
    if (state.params.load?.watch === false) state.mode = 'off';
    else if (state.mode === 'native') {
      const onSignal = (signal: WatchSignal) => changed(state, signal);
      for (const root of roots) {
        const lease = pool.subscribe(root.path, onSignal);
        if (lease) state.leases.push(lease);
        else state.mode = 'fallback';
      }
    }
    // New leases first, then the old ones: a shared watcher stays open across the swap.
    old.forEach((lease) => lease.release());
    return state.mode === 'native' ? state.leases.map((lease) => lease.ready) : [];
  }

  function changed(state: ListState, signal: WatchSignal): void {
    if (signal === 'lost') state.mode = 'fallback';
    state.dirty = true;
    void settle(state, true).catch(() => undefined);
  }

  /** Rescans until the list is clean; one scan at a time per list. */
  async function settle(state: ListState, announce: boolean): Promise<void> {
    while (state.scanning) await state.scanning;
    if (!state.dirty && state.result) return;
    state.scanning = rescan(state, announce)
      .catch((error: unknown) => {
        // A failed scan leaves the list dirty: the next list tries again instead of serving the old one.
        state.dirty = true;
        throw error;
      })
      .finally(() => (state.scanning = undefined));
    await state.scanning;
  }

  return {
    label: options.label,
    rank: options.rank,
    scope: options.scope ?? 'global',
    get rescans() {
      return rescans;
    },
    async list(_ctx: HandlerContext, params: SkillsListParams): Promise<SkillsListResult> {
      const key = JSON.stringify([params.workspaceDir ?? null, params.load ?? null]);
      let state = states.get(key);
      if (!state) states.set(key, (state = { params, dirty: true, mode: 'native', leases: [] }));
      // A change seen while a scan ran marks the list dirty again: scan until it is clean.
      while (state.scanning || state.dirty || !state.result) {
        await settle(state, false);
        if (state.mode !== 'native') break;
      }
      return state.result!;
    },
    watch(send) {
      notify = send;
    },
    close() {
      for (const state of states.values()) state.leases.forEach((lease) => lease.release());
      states.clear();
    },
  };
}
