import type { WorkspaceService } from '../../../../protocol/index.js';
import type { JournalStore } from './store.js';
import type { NotRestored } from './types.js';
import { finishChanges, undoChanges } from './undo.js';

/** What recovery did before a call, for the call's result. */
export interface RecoveryReport {
  /** Interrupted patches returned to all-old. */
  undone: number;
  /** Interrupted patches that had landed whole and were finished (all-new). */
  finished: number;
  notRestored: NotRestored[];
  /** Why some work could not be done yet (it is tried again before the next call), if so. */
  retrying?: string;
}

const running = new Map<string, Promise<RecoveryReport>>();

async function recover(store: JournalStore, session: string, workspace: WorkspaceService, signal: AbortSignal): Promise<RecoveryReport> {
  const report: RecoveryReport = { undone: 0, finished: 0, notRestored: [] };
  for (const journal of await store.pending(session)) {
    let resolved = false;
    try {
      if (journal.committed) {
        resolved = await finishChanges(journal.intent.changes, workspace, signal);
        if (resolved) report.finished += 1;
        else report.retrying = 'a parked original could not be removed yet';
      } else {
        const outcome = await undoChanges(journal.intent.changes, workspace, (i) => journal.backup(i), signal);
        report.notRestored.push(...outcome.notRestored);
        resolved = outcome.retry === undefined;
        if (resolved) report.undone += 1;
        else report.retrying = outcome.retry;
      }
      if (resolved) await journal.discard();
    } catch (error) {
      resolved = false;
      report.retrying = (error as Error).message;
    } finally {
      if (!resolved) journal.release();
    }
  }
  return report;
}

/**
 * Settle every patch of this session that a crash (of this plugin or of the backend)
 * interrupted, before the call touches any file: the session's files are then all-old or
 * all-new for each patch, never a mix. One recovery per session at a time.
 */
export function recoverSession(store: JournalStore, session: string, workspace: WorkspaceService, signal: AbortSignal): Promise<RecoveryReport> {
  const previous = running.get(session) ?? Promise.resolve(undefined);
  const next = previous.catch(() => undefined).then(() => recover(store, session, workspace, signal));
  running.set(session, next);
  void next.finally(() => {
    if (running.get(session) === next) running.delete(session);
  }).catch(() => undefined);
  return next;
}
