import type { WorkspaceService } from '../../../../protocol/index.js';
import { workspaceErrorCodeOf } from '../../../../sdk/fs-bridge/index.js';
import { applyChunks, PatchConflictError } from './patch-chunks.js';
import type { PatchHunk } from './patch-parse.js';
import { READ_MAX_BYTES } from './read.js';
import { looksBinary } from './text.js';

/** One validated file change, with what is needed to undo it. */
export type PlannedChange =
  | { op: 'add'; path: string; after: string }
  | { op: 'update'; path: string; before: string; after: string }
  | { op: 'move'; path: string; newPath: string; before: string; after: string }
  | { op: 'delete'; path: string; beforeBase64: string };

async function exists(workspace: WorkspaceService, path: string, signal: AbortSignal): Promise<boolean> {
  try {
    await workspace.stat(path, signal);
    return true;
  } catch (error) {
    if (workspaceErrorCodeOf(error) === 'NOT_FOUND') return false;
    throw error;
  }
}

async function readText(workspace: WorkspaceService, path: string, signal: AbortSignal): Promise<string> {
  const file = await workspace.read(path, { maxBytes: READ_MAX_BYTES }, signal);
  if (looksBinary(file.content)) throw new PatchConflictError(`${path} is a binary file; apply_patch updates text files only`);
  return file.content;
}

/**
 * Validate EVERY hunk against the workspace before anything is written: targets of
 * adds and moves must not exist, deleted and updated files must, and every chunk
 * must match. The result is the complete list of writes; nothing has changed yet.
 */
export async function planPatch(hunks: readonly PatchHunk[], workspace: WorkspaceService, signal: AbortSignal): Promise<PlannedChange[]> {
  const touched = new Set<string>();
  const claim = (path: string) => {
    if (touched.has(path)) throw new PatchConflictError(`${path} appears more than once in the patch; combine its changes into one hunk`);
    touched.add(path);
  };
  const plan: PlannedChange[] = [];
  for (const hunk of hunks) {
    claim(hunk.path);
    if (hunk.kind === 'add') {
      if (await exists(workspace, hunk.path, signal)) throw new PatchConflictError(`Cannot add ${hunk.path}: it already exists (use '*** Update File:' to change it)`);
      plan.push({ op: 'add', path: hunk.path, after: hunk.contents });
    } else if (hunk.kind === 'delete') {
      // Kept as base64 so a rollback restores binary files byte for byte.
      const before = await workspace.read(hunk.path, { encoding: 'base64', maxBytes: READ_MAX_BYTES }, signal);
      plan.push({ op: 'delete', path: hunk.path, beforeBase64: before.content });
    } else {
      const before = await readText(workspace, hunk.path, signal);
      const after = applyChunks(before, hunk.chunks, hunk.path);
      if (hunk.movePath === undefined) {
        plan.push({ op: 'update', path: hunk.path, before, after });
      } else {
        claim(hunk.movePath);
        if (await exists(workspace, hunk.movePath, signal)) throw new PatchConflictError(`Cannot move ${hunk.path} to ${hunk.movePath}: the target already exists`);
        plan.push({ op: 'move', path: hunk.path, newPath: hunk.movePath, before, after });
      }
    }
  }
  return plan;
}

/**
 * Apply a validated plan. If a write still fails (disk full, a concurrent change),
 * the changes already made are undone in reverse order, so the patch lands whole
 * or not at all. Returns normally only when every change is in place.
 */
export async function commitPlan(plan: readonly PlannedChange[], workspace: WorkspaceService, signal: AbortSignal): Promise<void> {
  const done: PlannedChange[] = [];
  try {
    for (const change of plan) {
      if (change.op === 'add') await workspace.write(change.path, change.after, { mkdirs: true }, signal);
      else if (change.op === 'update') await workspace.write(change.path, change.after, {}, signal);
      else if (change.op === 'move') {
        await workspace.write(change.newPath, change.after, { mkdirs: true }, signal);
        await workspace.remove(change.path, {}, signal);
      } else await workspace.remove(change.path, {}, signal);
      done.push(change);
    }
  } catch (error) {
    const failedUndo = await rollback(done, workspace);
    throw Object.assign(error as object, { rolledBack: failedUndo.length === 0, notRestored: failedUndo });
  }
}

/** Undo applied changes; cancellation does not stop an undo. Returns the paths that could not be restored. */
async function rollback(done: readonly PlannedChange[], workspace: WorkspaceService): Promise<string[]> {
  const failed: string[] = [];
  for (const change of [...done].reverse()) {
    try {
      if (change.op === 'add') await workspace.remove(change.path);
      else if (change.op === 'update') await workspace.write(change.path, change.before);
      else if (change.op === 'move') {
        await workspace.write(change.path, change.before, { mkdirs: true });
        await workspace.remove(change.newPath);
      } else await workspace.write(change.path, change.beforeBase64, { encoding: 'base64', mkdirs: true });
    } catch {
      failed.push(change.path);
    }
  }
  return failed;
}
