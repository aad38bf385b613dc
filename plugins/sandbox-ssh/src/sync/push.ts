import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { HostEntry } from './host-scan.js';
import { scanHost } from './host-scan.js';
import { markRemoteDrift } from './drift.js';
import { planPush, type PushPlan } from './push-plan.js';
import { nulPathList, parseRemoteRecords } from './remote-records.js';
import { APPLY_BATCH } from './remote-scripts.js';
import { runStep } from './remote-step.js';
import type { ProgressSink, SyncTarget } from './sync-target.js';
import { packEntries, type SentFile } from './tar-pack.js';

export interface PushOutcome {
  /** Paths found in conflict by this push that were not in conflict before. */
  newConflicts: string[];
  /** Entries sent and bytes of file content sent. */
  entries: number;
  bytes: number;
}

interface Batch {
  puts: Array<[string, HostEntry]>;
  removeFiles: string[];
  removeDirs: string[];
  bytes: number;
}

function batchesOf(plan: PushPlan, maxEntries: number, maxBytes: number): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = { puts: [], removeFiles: plan.removeFiles, removeDirs: plan.removeDirs, bytes: 0 };
  for (const put of plan.puts) {
    const size = put[1].kind === 'f' ? put[1].size : 0;
    if (current.puts.length > 0 && (current.puts.length >= maxEntries || current.bytes + size > maxBytes)) {
      batches.push(current);
      current = { puts: [], removeFiles: [], removeDirs: [], bytes: 0 };
    }
    current.puts.push(put);
    current.bytes += size;
  }
  batches.push(current);
  return batches;
}

/** `<length>\n<bytes>`: a length-prefixed part of the apply script's stdin. */
function part(list: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${list.length}\n`), list]);
}

/**
 * Sends one batch: removals, then a tar archive, in one step; the remote answers with the
 * records of what it now holds. A path is confirmed only when the remote holds what was
 * sent (same kind, a file of the same size, read unchanged); the rest stays pending and is
 * sent again by the next push.
 */
async function sendBatch(t: SyncTarget, batch: Batch, signal: AbortSignal | undefined, onBytes: (n: number) => void): Promise<void> {
  const { state } = t;
  const touched = [...batch.removeFiles, ...batch.removeDirs, ...batch.puts.map(([p]) => p)];
  for (const p of touched) state.pending.add(p);
  t.save(); // write-ahead: a crash mid-batch leaves these pending, never trusted
  const sent = new Map<string, SentFile>();
  const stdin = new PassThrough();
  stdin.write(part(nulPathList(batch.removeFiles)));
  stdin.write(part(Buffer.from(batch.removeDirs.map((p) => `./${p}\0`).join(''))));
  stdin.write(part(nulPathList([...batch.puts.map(([p]) => p), ...batch.removeFiles, ...batch.removeDirs])));
  const archive = packEntries(t.hostDir, batch.puts, sent, { allowHardLinks: t.allowHardLinks });
  archive.on('data', (chunk: Buffer) => onBytes(chunk.length));
  archive.pipe(stdin);
  const list = posix.join(t.copyDir, `.apply-${randomBytes(6).toString('hex')}`);
  let result: Awaited<ReturnType<typeof runStep>>;
  try {
    result = await runStep(t.connection, `upload to ${t.connection.label}:${t.treeDir}`, APPLY_BATCH, [t.treeDir, list], { stdin, signal });
  } finally {
    archive.destroy(); // also when cancelled: the file it was reading is closed now, not at GC
  }
  if (result.code === null) throw new SandboxError('SYNC_FAILED', `The upload to ${t.connection.label}:${t.treeDir} was cut off (the connection closed).`);
  const records = new Map(parseRemoteRecords(result.stdout).map((r) => [r.path, r]));
  for (const p of [...batch.removeFiles, ...batch.removeDirs]) {
    // Still there (a directory the remote filled meanwhile): from now on it is the remote's own.
    state.entries.delete(p);
    state.pending.delete(p);
  }
  for (const [p, entry] of batch.puts) {
    const record = records.get(p);
    const file = sent.get(p);
    const confirmed = record?.kind === entry.kind && (entry.kind !== 'f' || (record.size === entry.size && file?.stable === true));
    if (confirmed) {
      state.entries.set(p, { host: entry.stamp, remote: record.stamp, hash: file?.hash });
      state.pending.delete(p);
      state.conflicts.delete(p);
    } else if (record && record.kind !== entry.kind) {
      // Something of another kind stands in the way on the remote (a directory it filled): a conflict.
      state.pending.delete(p);
      state.conflicts.set(p, { host: entry.stamp, remote: record.stamp });
    }
  }
  t.save();
  const unsettled = batch.puts.filter(([p]) => state.pending.has(p) && !records.has(p));
  if (result.code !== 0 && unsettled.length > 0) {
    const said = result.stderr.toString('utf8').trim().slice(0, 600);
    throw new SandboxError('SYNC_FAILED', `The upload to ${t.connection.label}:${t.treeDir} failed (exit ${result.code}) for ${unsettled.length} entries, e.g. ${unsettled[0]![0]}${said ? `: ${said}` : ''}`);
  }
}

/**
 * Brings the remote copy up to the host: a metadata scan of the host (no network when
 * nothing changed), a plan (with a remote check of what the host changed), then batches.
 * Conflicts are recorded in the state and left alone on both sides. With `restoreDrift`
 * (once per session), what the remote changed where it may not is put back first.
 */
export async function push(t: SyncTarget, signal?: AbortSignal, onProgress?: ProgressSink, restoreDrift = false): Promise<PushOutcome> {
  const { state } = t;
  if (restoreDrift) await markRemoteDrift(t, signal);
  const hardLinked = new Set<string>();
  const host = scanHost(t.hostDir, t.filter(), { allowHardLinks: t.allowHardLinks, hardLinked });
  // Replaced whole: a file that lost its extra links is uploaded from now on, and readable again.
  t.hardLinked.clear();
  for (const p of hardLinked) t.hardLinked.add(p);
  const plan = await planPush(t, host, signal);
  const before = new Set(state.conflicts.keys());
  for (const [p, agreed] of plan.agreed) {
    if (agreed) state.entries.set(p, agreed);
    else state.entries.delete(p);
    state.pending.delete(p);
    state.conflicts.delete(p);
  }
  for (const [p, c] of plan.conflicts) state.conflicts.set(p, c);
  if (plan.agreed.length > 0 || plan.conflicts.size > 0) t.save();
  const bytesTotal = plan.puts.reduce((n, [, e]) => n + (e.kind === 'f' ? e.size : 0), 0);
  const progress = { phase: 'push' as const, entriesDone: 0, entriesTotal: plan.puts.length, bytesDone: 0, bytesTotal };
  const hasWork = plan.puts.length + plan.removeFiles.length + plan.removeDirs.length > 0;
  if (hasWork) {
    onProgress?.({ ...progress }); // the size of the work, before the first byte
    for (const batch of batchesOf(plan, t.settings.batchEntries, t.settings.batchBytes)) {
      let archived = 0;
      await sendBatch(t, batch, signal, (n) => {
        archived += n;
        onProgress?.({ ...progress, bytesDone: Math.min(bytesTotal, progress.bytesDone + archived) });
      });
      progress.entriesDone += batch.puts.length;
      progress.bytesDone += batch.bytes;
      onProgress?.({ ...progress });
    }
  }
  if (!state.complete) {
    state.complete = true; // from now on the remote may have changes of its own: they are checked
    t.save();
  }
  return { newConflicts: [...state.conflicts.keys()].filter((p) => !before.has(p)), entries: plan.puts.length, bytes: bytesTotal };
}
