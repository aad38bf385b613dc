import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { ConnectionLease } from '../connection-pool.js';
import { HostWriter } from './host-writer.js';
import { pull, type PullReport } from './pull.js';
import { push, type PushOutcome } from './push.js';
import { runStep } from './remote-step.js';
import { SyncJob, SyncStillRunning } from './sync-job.js';
import type { ProgressSink, SyncProgress, SyncTarget } from './sync-target.js';

const MB = 1024 * 1024;
const TOUCH_EVERY_MS = 10 * 60_000;
const count = (n: number) => n.toLocaleString('en-US');

function describeProgress(p: SyncProgress | undefined): string {
  if (!p) return 'starting';
  const bytes = p.bytesTotal >= MB ? `, ${count(Math.round(p.bytesDone / MB))} of ${count(Math.round(p.bytesTotal / MB))} MB` : '';
  return `${count(p.entriesDone)} of ${count(p.entriesTotal)} entries${bytes}`;
}

interface Running {
  kind: 'push' | 'pull';
  job: SyncJob<PushOutcome | PullReport>;
  /** Order of start: a push serves the calls that arrived before it started. */
  ticket: number;
}

/**
 * One remote copy of one host directory, shared by every session of this process that may
 * share it. At most one sync (push or pull) runs at a time; calls that need the copy fresh
 * join the push that started after they arrived, or start one.
 */
export class RemoteCopy {
  /** Protected paths of the sessions using it: a sync back never writes them. */
  readonly protectedPaths = new Set<string>();
  private running: Running | undefined;
  private ticket = 0;
  /** When the remote `meta` was last touched (prune's "last used"). */
  private touchedAt = Date.now();
  /** A session was opened: the next push first puts back what the remote may not change. */
  private restoreWanted = true;
  private readonly listeners = new Set<ProgressSink>();

  constructor(
    readonly target: SyncTarget,
    private readonly lease: ConnectionLease,
    private readonly unlock: () => void,
    /** The remote copy existed already (this is an incremental sync, not a first one). */
    readonly reused: boolean,
  ) {}

  get treeDir(): string {
    return this.target.treeDir;
  }

  /** Progress of every sync of this copy; returns the unsubscribe. */
  onProgress(sink: ProgressSink): () => void {
    this.listeners.add(sink);
    return () => this.listeners.delete(sink);
  }

  private start(kind: Running['kind'], work: (signal: AbortSignal, onProgress: ProgressSink) => Promise<PushOutcome | PullReport>): Running {
    const job = new SyncJob<PushOutcome | PullReport>((signal, progress) => work(signal, (p) => {
      progress(p);
      for (const listener of this.listeners) listener(p);
    }));
    const running: Running = { kind, job, ticket: ++this.ticket };
    this.running = running;
    void job.done.finally(() => { if (this.running === running) this.running = undefined; }).catch(() => undefined);
    return running;
  }

  private async waitFor(running: Running, signal: AbortSignal | undefined, deadline: number): Promise<PushOutcome | PullReport> {
    try {
      return await running.job.wait(signal, Math.max(0, deadline - Date.now()));
    } catch (error) {
      if (!(error instanceof SyncStillRunning)) throw error;
      const verb = running.kind === 'push' ? 'copied to' : 'copied back from';
      throw new SandboxError('SYNC_IN_PROGRESS', `The workspace is still being ${verb} ${this.target.connection.label} (${describeProgress(error.progress)}). The sync goes on in the background; run the call again in a moment.`, { data: { progress: error.progress } });
    }
  }

  /**
   * Makes the remote copy hold the host's current content (before every operation). Waits
   * at most `budgetMs` (then SYNC_IN_PROGRESS while the sync goes on); reports paths that
   * newly conflict as CONFLICT, once, after the rest was synced.
   */
  async fresh(signal?: AbortSignal, budgetMs = this.target.settings.waitMs): Promise<void> {
    const arrived = ++this.ticket;
    const deadline = Date.now() + budgetMs;
    for (;;) {
      const running = this.running;
      if (running && running.kind === 'push' && running.ticket > arrived) {
        const outcome = (await this.waitFor(running, signal, deadline)) as PushOutcome;
        this.markUsed();
        if (outcome.newConflicts.length > 0) throw conflictError(outcome.newConflicts);
        return;
      }
      if (running) {
        // An older push (it may have scanned before this call's host edits) or a pull: let it end first.
        await this.waitFor(running, signal, deadline).catch((error: unknown) => {
          // Its failure is not this call's (a push of its own follows), unless this call gave up or ran out of time.
          if (signal?.aborted || (error instanceof SandboxError && error.code === 'SYNC_IN_PROGRESS')) throw error;
        });
        continue;
      }
      const restore = this.restoreWanted;
      this.restoreWanted = false;
      this.start('push', (jobSignal, onProgress) => push(this.target, jobSignal, onProgress, restore).catch((error: unknown) => {
        if (restore) this.restoreWanted = true; // not done: the next push tries again
        throw error;
      }));
    }
  }

  /** A copy in use is never idle in prune's eyes, even when nothing changes for hours. */
  private markUsed(): void {
    if (Date.now() - this.touchedAt < TOUCH_EVERY_MS) return;
    this.touchedAt = Date.now();
    void runStep(this.target.connection, 'marking the copy used', 'touch -- "$1/meta"', [this.target.copyDir]).catch(() => undefined);
  }

  /** A new session: like `fresh`, after putting back what the remote changed where it may not. */
  async freshForSession(signal?: AbortSignal, budgetMs?: number): Promise<void> {
    this.restoreWanted = true;
    await this.fresh(signal, budgetMs);
  }

  /** Copies the remote changes back to the host (a writable copy), after any running sync. */
  async syncBack(signal?: AbortSignal): Promise<PullReport> {
    if (this.target.readOnly) return { applied: [], conflicts: [], refused: [] };
    await this.settled();
    const writer = new HostWriter(this.target.hostDir, [...this.protectedPaths]);
    const running = this.start('pull', (jobSignal, onProgress) => pull(this.target, writer, jobSignal, onProgress));
    return (await running.job.wait(signal)) as PullReport;
  }

  /** Resolves once no sync runs (whatever their outcome). */
  async settled(): Promise<void> {
    while (this.running) await this.running.job.done.catch(() => undefined);
  }

  /** Stops a running sync (an upload stops for real), then lets go of the state and the connection. */
  async dispose(): Promise<void> {
    const running = this.running;
    running?.job.cancel('the copy is no longer used');
    await running?.job.done.catch(() => undefined);
    this.unlock();
    this.lease.release();
  }
}

export function conflictError(paths: readonly string[]): SandboxError {
  const shown = paths.slice(0, 10).join(', ') + (paths.length > 10 ? ` and ${paths.length - 10} more` : '');
  return new SandboxError('CONFLICT', `Sync conflict: ${paths.length === 1 ? 'this path' : 'these paths'} changed both on the host and in the sandbox since the last sync: ${shown}. Neither side was overwritten; the sandbox keeps its own version and the host its own. This call was not run: run it again to go on.`, { data: { paths: [...paths] } });
}
