/**
 * Skill snapshot versions (SPEC §6.4): a global counter for sources every agent shares and one
 * per workspace for the workspace-scoped sources. A bump takes the current time in ms, or the
 * old value plus one when the clock has not moved past it, so versions strictly increase.
 * A workspace's snapshot version is the larger of its own and the global one.
 */
export class SkillVersions {
  #global = 0;
  readonly #byWorkspace = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  #next(current: number): number {
    const now = this.now();
    return now <= current ? current + 1 : now;
  }

  /** Bumps one workspace's version, or the global one. */
  bump(workspaceDir?: string): number {
    if (workspaceDir === undefined) return (this.#global = this.#next(this.#global));
    const next = this.#next(this.get(workspaceDir));
    this.#byWorkspace.set(workspaceDir, next);
    return next;
  }

  get(workspaceDir?: string): number {
    const local = workspaceDir === undefined ? 0 : (this.#byWorkspace.get(workspaceDir) ?? 0);
    return Math.max(this.#global, local);
  }

  /** Forgets a workspace, folding a newer local version into the global one. */
  clear(workspaceDir: string): void {
    const local = this.#byWorkspace.get(workspaceDir);
    if (local !== undefined && local > this.#global) this.#global = local;
    this.#byWorkspace.delete(workspaceDir);
  }
}

/** Whether a snapshot built at `cached` must be rebuilt for `next` (non-numbers count as 0). */
export function shouldRefreshSnapshotForVersion(cached: unknown, next: unknown): boolean {
  const c = typeof cached === 'number' && Number.isFinite(cached) ? cached : 0;
  const n = typeof next === 'number' && Number.isFinite(next) ? next : 0;
  return n === 0 ? c > 0 : c < n;
}
