import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { WorkspaceService } from '../../../../protocol/index.js';
import { workspaceErrorCodeOf } from '../../../../sdk/fs-bridge/index.js';
import { WorkspaceError } from '../../../../sdk/plugin-api.js';
import type { JournalStore } from '../journal/store.js';
import type { JournalChange, NotRestored } from '../journal/types.js';
import { finishChanges, hashOf, undoChanges } from '../journal/undo.js';
import type { PlannedChange } from './patch-plan.js';
import { FsToolError } from './results.js';

/** A commit failed; `cause` is why, the rest says what the undo achieved. */
export class PatchCommitError extends Error {
  override readonly name = 'PatchCommitError';
  constructor(
    override readonly cause: unknown,
    readonly notRestored: NotRestored[],
    /** Why the undo could not finish now, if so; the journal is kept and retried before the next call of the session. */
    readonly retrying: string | undefined,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

export interface CommitOptions {
  /** Where the journal goes; only multi-step patches need one. */
  journals: () => JournalStore;
  session: string;
  progress?: (done: number, total: number) => void;
}

/** The undo runs even when the call was cancelled, but not forever. */
const UNDO_TIMEOUT_MS = 120_000;

/** A move's new file is written, then the original is parked (see JournalChange): all its undo needs is a rename back. */
function toJournal(plan: readonly PlannedChange[], id: string): { changes: JournalChange[]; backups: Map<number, Buffer> } {
  const backups = new Map<number, Buffer>();
  const trash = (target: string, i: number) => path.posix.join(path.posix.dirname(target), `.pincer-trash-${id}-${i}`);
  const changes = plan.map((c, i): JournalChange => {
    if (c.op === 'add') return { op: 'add', target: c.target, afterHash: hashOf(Buffer.from(c.after)), createdDirs: c.createdDirs };
    if (c.op === 'delete') return { op: 'delete', target: c.target, version: c.version, trash: trash(c.target, i) };
    const afterHash = hashOf(Buffer.from(c.after));
    if (c.op === 'move') return { op: 'move', target: c.target, version: c.version, trash: trash(c.target, i), newTarget: c.newTarget, afterHash, createdDirs: c.createdDirs };
    backups.set(i, c.before);
    return { op: 'update', target: c.target, version: c.version, beforeHash: hashOf(c.before), afterHash };
  });
  return { changes, backups };
}

/** Refuse to park a file that changed since it was planned (rename has no expectVersion of its own). */
async function assertUnchanged(workspace: WorkspaceService, target: string, version: string | undefined, signal: AbortSignal): Promise<void> {
  if (version === undefined) return;
  if ((await workspace.stat(target, signal)).version !== version) throw new WorkspaceError('CONFLICT', `${target} changed since the patch read it`, { path: target });
}

async function applyOne(change: PlannedChange, journal: JournalChange | undefined, workspace: WorkspaceService, signal: AbortSignal): Promise<void> {
  if (change.op === 'add') await workspace.write(change.target, change.after, { createOnly: true, mkdirs: true }, signal);
  else if (change.op === 'update') await workspace.write(change.target, change.after, { expectVersion: change.version }, signal);
  else {
    if (change.op === 'move') await workspace.write(change.newTarget, change.after, { createOnly: true, mkdirs: true, mode: change.mode }, signal);
    await assertUnchanged(workspace, change.target, change.version, signal);
    // Without a journal (a single delete) there is nothing to undo, so the file goes at once.
    if (journal !== undefined && 'trash' in journal) await workspace.rename(change.target, journal.trash, signal);
    else await workspace.remove(change.target, {}, signal);
  }
}

/**
 * Apply a validated plan all-or-nothing. One write (or remove) is atomic by itself; anything
 * more (several files, a move, an add that creates directories) is journaled first (intent + backups, durably), so a crash of this plugin or of the backend
 * at any point is settled by the next call of the session. A failure here undoes what
 * landed, at once; what cannot be undone yet stays journaled and is retried.
 */
export async function commitPlan(plan: readonly PlannedChange[], workspace: WorkspaceService, signal: AbortSignal, options: CommitOptions): Promise<void> {
  const only = plan.length === 1 ? plan[0] : undefined;
  if (only !== undefined && (only.op === 'update' || only.op === 'delete' || (only.op === 'add' && only.createdDirs.length === 0))) {
    // One write or remove, atomic by itself: nothing to undo. A refusal is explained like any other; anything else passes as is.
    await applyOne(only, undefined, workspace, signal).catch((error: unknown) => {
      throw workspaceErrorCodeOf(error) === undefined ? error : new PatchCommitError(error, [], undefined);
    });
    return;
  }
  const { changes, backups } = toJournal(plan, randomBytes(4).toString('hex'));
  const journal = await options
    .journals()
    .begin(options.session, changes, backups)
    .catch((error: unknown) => {
      throw new FsToolError('JOURNAL_UNAVAILABLE', `Could not record the undo journal this patch needs (${(error as Error).message}); nothing was changed`, 'This is a problem with the fs plugin\'s data directory, for the operator. Change one file per call meanwhile.');
    });
  let applied = 0;
  try {
    for (; applied < plan.length; applied += 1) {
      await applyOne(plan[applied] as PlannedChange, changes[applied], workspace, signal);
      options.progress?.(applied + 1, plan.length);
    }
    // From here on a recovery finishes the patch (removes the parked originals) instead of undoing it.
    // Without parked originals there is nothing to finish: the patch stands once the journal is gone.
    if (changes.some((c) => 'trash' in c)) await journal.markCommitted();
  } catch (error) {
    // Undo what landed, plus what the failing step may have left (a move's new file, new directories), but
    // not a failing update: a file that changed under it is someone else's work, not ours to restore.
    const failing = changes[applied];
    const partial: JournalChange[] =
      failing?.op === 'add' ? [failing] : failing?.op === 'move' ? [{ op: 'add', target: failing.newTarget, afterHash: failing.afterHash, createdDirs: failing.createdDirs }] : [];
    const outcome = await undoChanges([...changes.slice(0, applied), ...partial], workspace, (i) => journal.backup(i), AbortSignal.timeout(UNDO_TIMEOUT_MS));
    if (outcome.retry !== undefined) journal.release();
    else await journal.discard().catch(() => journal.release());
    throw new PatchCommitError(error, outcome.notRestored, outcome.retry);
  }
  if (await finishChanges(changes, workspace, AbortSignal.timeout(UNDO_TIMEOUT_MS))) await journal.discard();
  else journal.release();
}
