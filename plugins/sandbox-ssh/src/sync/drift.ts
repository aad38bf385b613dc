import { remoteManifest } from './pull.js';
import type { SyncTarget } from './sync-target.js';

/**
 * Finds what the remote changed where it may not (everything in a read-only copy, the
 * host-owned paths of a writable one: the skills) and marks it pending, so the push that
 * follows puts the host's version back and removes what the remote added. Commands run as
 * the ssh user and can write anywhere in the copy; this is what keeps a read-only copy, and
 * an agent's instructions, what the host says at the start of every session.
 */
export async function markRemoteDrift(t: SyncTarget, signal?: AbortSignal): Promise<number> {
  const { state } = t;
  if (!state.complete) return 0; // nothing of the copy was used yet: all of it is ours
  const owned = (p: string) => t.readOnly || t.hostOwns(p);
  const filter = t.filter();
  const seen = new Set<string>();
  let drifted = 0;
  const mark = (p: string) => { state.pending.add(p); drifted++; };
  for (const r of await remoteManifest(t, signal)) {
    seen.add(r.path);
    if (!owned(r.path) || filter.excludes(r.path, r.kind === 'd') || state.entries.get(r.path)?.remote === r.stamp) continue;
    // Added by the remote: known from now on (kind first), so the push removes it the right way.
    if (!state.entries.has(r.path)) state.entries.set(r.path, { host: `${r.kind === 'd' ? 'd' : 'f'}:remote-only`, remote: r.stamp });
    mark(r.path);
  }
  for (const p of state.entries.keys()) if (owned(p) && !seen.has(p)) mark(p);
  if (drifted > 0) t.save();
  return drifted;
}
