import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SyncedEntry } from './copy-state.js';
import type { HostEntry } from './host-scan.js';
import { nulPathList, parseRemoteRecords, type RemoteRecord } from './remote-records.js';
import { HASH_PATHS, STAT_PATHS } from './remote-scripts.js';
import { runStep, stepFailure } from './remote-step.js';
import type { SyncTarget } from './sync-target.js';

/** What one push will do. */
export interface PushPlan {
  /** Entries to send (directories before what they hold). */
  puts: Array<[string, HostEntry]>;
  /** Remote paths the host removed: files and links, then directories (deepest first, only if empty). */
  removeFiles: string[];
  removeDirs: string[];
  /** Both sides already agree: the baseline is updated without sending anything. */
  agreed: Array<[string, SyncedEntry | undefined]>;
  /** Paths both sides changed differently: left alone on both sides. */
  conflicts: Map<string, { host: string; remote: string }>;
}

const ABSENT = 'absent';

function hashHostFile(hostDir: string, path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(join(hostDir, path))).digest('hex');
  } catch {
    return undefined;
  }
}

/** The remote's sha256 of each listed file (one step). */
async function remoteHashes(t: SyncTarget, paths: string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const result = await runStep(t.connection, 'hashing changed files', HASH_PATHS, [t.treeDir], { stdin: nulPathList(paths), signal });
  const failure = stepFailure('hashing changed files', result);
  if (failure) throw failure;
  for (const line of result.stdout.toString('utf8').split('\0')) {
    const match = /^([0-9a-f]{64}) {2}\.\/(.*)$/s.exec(line);
    if (match) out.set(match[2]!, match[1]!);
  }
  return out;
}

/**
 * Compares the host with the last sync and, for each path the host changed, checks whether
 * the remote changed it too (one step for the records, one more only when contents must be
 * compared). The host wins without a check where the remote side cannot have its own
 * changes: a read-only copy, host-owned paths, paths of an unconfirmed batch, and a copy
 * whose first full push has not completed.
 */
export async function planPush(t: SyncTarget, host: ReadonlyMap<string, HostEntry>, signal?: AbortSignal): Promise<PushPlan> {
  const { state } = t;
  const plan: PushPlan = { puts: [], removeFiles: [], removeDirs: [], agreed: [], conflicts: new Map() };
  const unchecked = (p: string) => t.readOnly || !state.complete || state.pending.has(p) || t.hostOwns(p);
  const toCheck: string[] = [];
  const remove = (p: string, kind: string | undefined) => (kind === 'd' ? plan.removeDirs : plan.removeFiles).push(p);
  for (const [p, e] of host) {
    const before = state.entries.get(p);
    const conflict = state.conflicts.get(p);
    if (conflict && conflict.host === e.stamp && !unchecked(p)) { plan.conflicts.set(p, conflict); continue; }
    if (!conflict && before?.host === e.stamp && !state.pending.has(p)) continue;
    if (unchecked(p)) {
      if (before && before.host[0] !== e.kind) remove(p, before.host[0]); // a type change: make room
      plan.puts.push([p, e]);
    } else toCheck.push(p);
  }
  const gone = new Set([...state.entries.keys(), ...state.pending, ...state.conflicts.keys()].filter((p) => !host.has(p)));
  for (const p of gone) {
    if (unchecked(p)) remove(p, state.entries.get(p)?.host[0]);
    else toCheck.push(p);
  }
  if (toCheck.length > 0) await checkRemote(t, host, toCheck, plan, signal);
  plan.removeDirs.sort((a, b) => b.length - a.length);
  return plan;
}

async function checkRemote(t: SyncTarget, host: ReadonlyMap<string, HostEntry>, paths: string[], plan: PushPlan, signal?: AbortSignal): Promise<void> {
  const result = await runStep(t.connection, 'checking the remote copy', STAT_PATHS, [t.treeDir], { stdin: nulPathList(paths), signal });
  const failure = stepFailure('checking the remote copy', result);
  if (failure) throw failure;
  const remote = new Map<string, RemoteRecord>(parseRemoteRecords(result.stdout).map((r) => [r.path, r]));
  const compare: string[] = [];
  for (const p of paths) {
    const before = t.state.entries.get(p);
    const now = remote.get(p);
    const hostEntry = host.get(p);
    const remoteUnchanged = !t.state.conflicts.has(p) && (now?.stamp ?? ABSENT) === (before?.remote ?? ABSENT);
    if (remoteUnchanged) {
      if (hostEntry) {
        if (before && before.host[0] !== hostEntry.kind) (before.host[0] === 'd' ? plan.removeDirs : plan.removeFiles).push(p);
        plan.puts.push([p, hostEntry]);
      } else if (now) (now.kind === 'd' ? plan.removeDirs : plan.removeFiles).push(p);
      else plan.agreed.push([p, undefined]);
    } else if (!hostEntry && !now) plan.agreed.push([p, undefined]);
    else if (hostEntry && now && hostEntry.kind === now.kind && hostEntry.kind !== 'f' && (hostEntry.kind === 'd' || hostEntry.link === now.link)) {
      plan.agreed.push([p, { host: hostEntry.stamp, remote: now.stamp }]);
    } else if (hostEntry?.kind === 'f' && now?.kind === 'f') compare.push(p);
    else plan.conflicts.set(p, { host: hostEntry?.stamp ?? ABSENT, remote: now?.stamp ?? ABSENT });
  }
  const hashes = await remoteHashes(t, compare, signal);
  for (const p of compare) {
    const hostEntry = host.get(p)!;
    const hash = hashHostFile(t.hostDir, p);
    if (hash !== undefined && hash === hashes.get(p)) plan.agreed.push([p, { host: hostEntry.stamp, remote: remote.get(p)!.stamp, hash }]);
    else plan.conflicts.set(p, { host: hostEntry.stamp, remote: remote.get(p)!.stamp });
  }
}
