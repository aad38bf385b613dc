import { createHash } from 'node:crypto';
import path from 'node:path';
import type { WorkspaceService } from '../../../../protocol/index.js';
import { workspaceErrorCodeOf } from '../../../../sdk/fs-bridge/index.js';
import type { JournalChange, NotRestored } from './types.js';

export const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface UndoOutcome {
  notRestored: NotRestored[];
  /** Why the undo stopped early on a failure that may pass later (the backend restarting, an I/O error): keep the journal and try again. */
  retry?: string;
}

/** The file's bytes and version, or undefined when nothing is there. */
async function current(workspace: WorkspaceService, target: string, signal: AbortSignal): Promise<{ hash: string; version?: string } | undefined> {
  try {
    const file = await workspace.read(target, { encoding: 'base64' }, signal);
    return { hash: hashOf(Buffer.from(file.content, 'base64')), version: file.version };
  } catch (error) {
    if (workspaceErrorCodeOf(error) === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** Names in the directory of `target`; a symlink counts, even a dangling one. */
async function namesBeside(workspace: WorkspaceService, target: string, signal: AbortSignal): Promise<Set<string>> {
  try {
    return new Set((await workspace.readDirectory(path.posix.dirname(target), signal)).map((e) => e.name));
  } catch (error) {
    if (workspaceErrorCodeOf(error) === 'NOT_FOUND') return new Set();
    throw error;
  }
}

/**
 * Remove a file the patch created if it still holds exactly what the patch wrote (anything
 * else there is someone else's and stays), then the directories it created, if empty.
 */
async function unwrite(workspace: WorkspaceService, target: string, afterHash: string, createdDirs: readonly string[], signal: AbortSignal): Promise<void> {
  if ((await current(workspace, target, signal))?.hash === afterHash) await workspace.remove(target, {}, signal);
  for (const dir of [...createdDirs].reverse()) {
    const entries = await workspace.readDirectory(dir, signal).catch(() => undefined);
    if (entries?.length === 0) await workspace.remove(dir, { recursive: true }, signal);
  }
}

/** Put a parked original (deleted or moved away) back under its name; a link comes back as the same link. */
async function unpark(workspace: WorkspaceService, target: string, trash: string, signal: AbortSignal): Promise<NotRestored | undefined> {
  const names = await namesBeside(workspace, target, signal); // the trash is parked beside its original
  const atTarget = names.has(path.posix.basename(target));
  const atTrash = names.has(path.posix.basename(trash));
  if (atTrash && !atTarget) await workspace.rename(trash, target, signal);
  else if (atTrash) return { path: target, reason: `re-created by another process; the original is kept as ${trash}` };
  else if (!atTarget) return { path: target, reason: 'the original is gone' };
  return undefined;
}

async function undoOne(change: JournalChange, index: number, workspace: WorkspaceService, backup: (index: number) => Promise<Buffer>, signal: AbortSignal): Promise<NotRestored | void> {
  switch (change.op) {
    case 'add':
      return unwrite(workspace, change.target, change.afterHash, change.createdDirs, signal);
    case 'delete':
      return unpark(workspace, change.target, change.trash, signal);
    case 'move':
      await unwrite(workspace, change.newTarget, change.afterHash, change.createdDirs, signal);
      return unpark(workspace, change.target, change.trash, signal);
    case 'update': {
      const now = await current(workspace, change.target, signal);
      if (now === undefined) return { path: change.target, reason: 'removed by another process; not re-created' };
      if (now.hash === change.beforeHash) return undefined;
      if (now.hash !== change.afterHash) return { path: change.target, reason: 'changed by another process after the patch wrote it; left as it is' };
      const original = (await backup(index)).toString('base64');
      await workspace.write(change.target, original, { encoding: 'base64', expectVersion: now.version }, signal);
      return undefined;
    }
  }
}

/**
 * Return every file of a journal to its state before the patch, judged by what is there
 * now (so it is safe to run again, and after a crash at any point): a change that never
 * landed is left alone, one that landed is undone, and an updated file someone else changed
 * since is kept and reported. Last change first, so created directories empty before they go.
 */
export async function undoChanges(changes: readonly JournalChange[], workspace: WorkspaceService, backup: (index: number) => Promise<Buffer>, signal: AbortSignal): Promise<UndoOutcome> {
  const outcome: UndoOutcome = { notRestored: [] };
  for (let i = changes.length - 1; i >= 0; i -= 1) {
    const change = changes[i] as JournalChange;
    try {
      const left = await undoOne(change, i, workspace, backup, signal);
      if (left) outcome.notRestored.push(left);
    } catch (error) {
      const code = workspaceErrorCodeOf(error);
      // A refusal with a code (CONFLICT, PROTECTED_PATH, ...) is final; anything else may pass on a retry,
      // which redoes this whole undo (every step is judged by what is there), so stop here.
      if (code === undefined || code === 'IO_ERROR') return { notRestored: outcome.notRestored, retry: (error as Error).message };
      outcome.notRestored.push({ path: change.target, reason: `${code}: ${(error as Error).message}` });
    }
  }
  return outcome;
}

/** After a commit: remove the parked originals. Returns false when one could not be removed yet. */
export async function finishChanges(changes: readonly JournalChange[], workspace: WorkspaceService, signal: AbortSignal): Promise<boolean> {
  let done = true;
  for (const change of changes) {
    if (change.op !== 'delete' && change.op !== 'move') continue;
    try {
      if ((await namesBeside(workspace, change.trash, signal)).has(path.posix.basename(change.trash))) await workspace.remove(change.trash, {}, signal);
    } catch {
      done = false;
    }
  }
  return done;
}
