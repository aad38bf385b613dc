import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gitIgnoredAmong } from './excludes.js';
import { hostStampOf } from './host-scan.js';
import { HostWriteRefused, type HostWriter } from './host-writer.js';
import { nulPathList, parseRemoteRecords, type RemoteRecord } from './remote-records.js';
import { FETCH_FILES, MANIFEST } from './remote-scripts.js';
import { runStep, stepFailure } from './remote-step.js';
import type { ProgressSink, SyncTarget } from './sync-target.js';
import { TarReader } from './tar-read.js';

export interface PullReport {
  /** Paths written, created or removed on the host. */
  applied: string[];
  /** Paths both sides changed: the host keeps its version, the remote its own. */
  conflicts: string[];
  /** Remote changes the host guard refused, with the reason. */
  refused: Array<{ path: string; reason: string }>;
}

/** A remote change to bring back: the remote's record, or undefined for a removal. */
type Change = [path: string, remote: RemoteRecord | undefined];

function hostNow(hostDir: string, path: string): { stamp: string; kind: string; link?: string } | undefined {
  try {
    const stat = lstatSync(join(hostDir, path));
    const link = stat.isSymbolicLink() ? readlinkSync(join(hostDir, path)) : undefined;
    return { stamp: hostStampOf(stat, link), kind: stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : 'f', link };
  } catch {
    return undefined;
  }
}

/** Records of the whole remote tree (names every filter excludes are not even listed). */
export async function remoteManifest(t: SyncTarget, signal?: AbortSignal): Promise<RemoteRecord[]> {
  const names = t.filter().prunableNames;
  const prune = names.length ? ['(', ...names.flatMap((n, i) => (i ? ['-o', '-name', n] : ['-name', n])), ')', '-prune', '-o'] : [];
  const result = await runStep(t.connection, 'listing the remote copy', MANIFEST, [t.treeDir, ...prune], { signal });
  const failure = stepFailure('listing the remote copy', result);
  if (failure) throw failure;
  return parseRemoteRecords(result.stdout);
}

/** What changed on the remote since the last sync, minus what never comes back. */
function remoteChanges(t: SyncTarget, records: RemoteRecord[], report: PullReport): Change[] {
  const filter = t.filter();
  const { state } = t;
  const seen = new Set<string>();
  const changes: Change[] = [];
  for (const p of state.conflicts.keys()) report.conflicts.push(p);
  const keep = (p: string, isDirectory: boolean) => !filter.excludes(p, isDirectory) && !t.hostOwns(p) && !state.pending.has(p) && !state.conflicts.has(p);
  for (const r of records) {
    seen.add(r.path);
    if (r.kind === 'other' || !keep(r.path, r.kind === 'd')) continue;
    if (state.entries.get(r.path)?.remote !== r.stamp) changes.push([r.path, r]);
  }
  for (const [p, e] of state.entries) if (!seen.has(p) && keep(p, e.host[0] === 'd')) changes.push([p, undefined]);
  if (t.settings.gitignore) {
    const fresh = changes.filter(([p, r]) => r && !state.entries.has(p)).map(([p]) => p);
    const ignored = gitIgnoredAmong(t.hostDir, fresh);
    return changes.filter(([p]) => !ignored.has(p));
  }
  return changes;
}

/** Fetches regular files in one step; only files unchanged while they were archived are returned. */
async function fetchFiles(t: SyncTarget, wanted: Map<string, RemoteRecord>, signal?: AbortSignal): Promise<Map<string, Buffer>> {
  const maxFile = Math.max(...[...wanted.values()].map((r) => r.size), 0);
  const reader = new TarReader(new Set(wanted.keys()), maxFile);
  const list = posix.join(t.copyDir, `.fetch-${randomBytes(6).toString('hex')}`);
  const result = await runStep(t.connection, 'sync back', FETCH_FILES, [t.treeDir, list], { stdin: nulPathList(wanted.keys()), signal, onStdout: (c) => reader.push(c) });
  const failure = stepFailure(`sync back from ${t.connection.label}:${t.treeDir}`, result);
  if (failure) throw failure;
  reader.finish();
  const after = new Map(parseRemoteRecords(result.stderr).map((r) => [r.path, r.stamp]));
  const out = new Map<string, Buffer>();
  for (const [p, file] of reader.files) if (after.get(p) === wanted.get(p)?.stamp && file.data.length === wanted.get(p)?.size) out.set(p, file.data);
  return out;
}

/**
 * Brings the remote copy's changes back to the host (a writable copy only), through the
 * host's path guard. A path the host changed too is a conflict: neither side is touched.
 * Files are fetched in batches of `sync.batchBytes`; the state is saved after each batch.
 */
export async function pull(t: SyncTarget, writer: HostWriter, signal?: AbortSignal, onProgress?: ProgressSink): Promise<PullReport> {
  const report: PullReport = { applied: [], conflicts: [], refused: [] };
  if (t.readOnly) return report;
  const changes = remoteChanges(t, await remoteManifest(t, signal), report);
  // Directories first (parents before children), then files, links, and removals deepest first.
  const order = (c: Change) => (!c[1] ? 3 : c[1].kind === 'd' ? 0 : c[1].kind === 'f' ? 1 : 2);
  changes.sort((a, b) => order(a) - order(b) || (order(a) === 3 ? b[0].length - a[0].length : a[0].length - b[0].length));
  const files = changes.filter(([, r]) => r?.kind === 'f');
  const bytesTotal = files.reduce((n, [, r]) => n + r!.size, 0);
  const progress = { phase: 'pull' as const, entriesDone: 0, entriesTotal: changes.length, bytesDone: 0, bytesTotal };
  let fetched = new Map<string, Buffer>();
  let batchEnd = -1;
  for (let i = 0; i < changes.length; i++) {
    const [p, remote] = changes[i]!;
    if (remote?.kind === 'f' && i > batchEnd) {
      // The next batch of files, up to sync.batchBytes (and sync.batchEntries).
      const wanted = new Map<string, RemoteRecord>();
      let bytes = 0;
      for (batchEnd = i; batchEnd < changes.length && changes[batchEnd]![1]?.kind === 'f'; batchEnd++) {
        const r = changes[batchEnd]![1]!;
        if (wanted.size > 0 && (bytes + r.size > t.settings.batchBytes || wanted.size >= t.settings.batchEntries)) break;
        wanted.set(changes[batchEnd]![0], r);
        bytes += r.size;
      }
      batchEnd--;
      fetched = await fetchFiles(t, wanted, signal);
      t.save();
    }
    await applyOne(t, writer, p, remote, fetched.get(p), report);
    progress.entriesDone++;
    if (remote?.kind === 'f') progress.bytesDone += remote.size;
    onProgress?.({ ...progress });
  }
  t.save();
  return report;
}

async function applyOne(t: SyncTarget, writer: HostWriter, p: string, remote: RemoteRecord | undefined, data: Buffer | undefined, report: PullReport): Promise<void> {
  const { state } = t;
  const before = state.entries.get(p);
  const host = hostNow(t.hostDir, p);
  const hostUnchanged = (host?.stamp ?? 'absent') === (before?.host ?? 'absent');
  if (remote?.kind === 'f' && data === undefined) return; // changing while read: taken next time
  const hash = data ? createHash('sha256').update(data).digest('hex') : undefined;
  const settle = (entry: { host: string; remote: string; hash?: string } | undefined) => {
    if (entry) state.entries.set(p, entry);
    else state.entries.delete(p);
  };
  if (!hostUnchanged) {
    // Both sides changed: fine only where they now agree.
    const agree = !remote ? !host
      : remote.kind === 'd' ? host?.kind === 'd'
      : remote.kind === 'l' ? host?.kind === 'l' && host.link === remote.link
      : host?.kind === 'f' && createHash('sha256').update(readFileSync(join(t.hostDir, p))).digest('hex') === hash;
    if (agree) settle(remote && host ? { host: host.stamp, remote: remote.stamp, hash } : undefined);
    else {
      state.conflicts.set(p, { host: host?.stamp ?? 'absent', remote: remote?.stamp ?? 'absent' });
      report.conflicts.push(p);
    }
    return;
  }
  try {
    if (!remote) await writer.remove(p, before?.host[0] === 'd');
    else if (remote.kind === 'd') { if (host?.kind !== 'd') await writer.mkdir(p); }
    else if (remote.kind === 'l') await writer.symlink(p, remote.link ?? '');
    else await writer.writeFile(p, data!, remote.mode, !host);
    const now = remote ? hostNow(t.hostDir, p) : undefined;
    settle(remote && now ? { host: now.stamp, remote: remote.stamp, hash } : undefined);
    report.applied.push(p);
  } catch (error) {
    // Refused by the guard or failed on the host: reported, and tried again by the next sync back.
    report.refused.push({ path: p, reason: error instanceof HostWriteRefused ? error.message : String((error as Error)?.message ?? error) });
  }
}
