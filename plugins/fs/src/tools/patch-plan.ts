import path from 'node:path';
import type { WorkspaceService } from '../../../../protocol/index.js';
import { workspaceErrorCodeOf } from '../../../../sdk/fs-bridge/index.js';
import { applyChunks, PatchConflictError } from './patch-chunks.js';
import type { PatchHunk } from './patch-parse.js';
import { FsToolError } from './results.js';
import { readForRewrite } from './rewrite-source.js';

/**
 * One validated file change. `target`/`newTarget` are canonical workspace paths (after
 * symlink resolution): the writes go there, and "one file touched twice" is judged on them.
 */
export type PlannedChange =
  | { op: 'add'; path: string; target: string; after: string; createdDirs: string[] }
  | { op: 'update'; path: string; target: string; version?: string; before: Buffer; after: string }
  | { op: 'move'; path: string; target: string; version?: string; mode?: number; newPath: string; newTarget: string; after: string; createdDirs: string[] }
  | { op: 'delete'; path: string; target: string; version?: string };

const notFound = (error: unknown): boolean => workspaceErrorCodeOf(error) === 'NOT_FOUND';

/** Most bytes of existing files one patch may rewrite: all of them are held in memory, and in the journal. */
export const PATCH_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Canonical path of a file that must not exist yet, and the directories writing it will
 * create: the nearest existing ancestor is resolved by the backend, the rest appended.
 */
async function resolveNew(workspace: WorkspaceService, input: string, exists: string, signal: AbortSignal): Promise<{ target: string; createdDirs: string[] }> {
  const missing: string[] = [];
  for (let at = path.posix.normalize(input); ; at = path.posix.dirname(at)) {
    try {
      const stat = await workspace.stat(at, signal);
      if (missing.length === 0) throw new PatchConflictError(exists);
      if (!stat.isDirectory) throw new PatchConflictError(`Cannot create ${input}: ${at} is not a directory`);
      // A missing directory that is a name already is a dangling symlink: creating through it (and removing it on undo) would change the link.
      if (missing.length > 1 && (await workspace.readDirectory(stat.path, signal)).some((e) => e.name === missing[0])) {
        throw new PatchConflictError(`Cannot create ${input}: ${path.posix.join(at, missing[0] as string)} is a symbolic link to nothing`);
      }
      const createdDirs = missing.slice(1).map((_, i) => path.posix.join(stat.path, ...missing.slice(0, i + 1)));
      return { target: path.posix.join(stat.path, ...missing), createdDirs };
    } catch (error) {
      if (!notFound(error) || path.posix.dirname(at) === at) throw error;
      missing.unshift(path.posix.basename(at));
    }
  }
}

/** Canonical path of an entry to delete (its directory resolved, the name itself kept: a symlink is deleted, not its target). */
async function resolveExisting(workspace: WorkspaceService, input: string, signal: AbortSignal): Promise<{ target: string; version?: string }> {
  const dir = await workspace.stat(path.posix.dirname(input), signal);
  const name = path.posix.basename(input);
  const entry = (await workspace.readDirectory(dir.path, signal)).find((e) => e.name === name);
  if (entry === undefined) throw new PatchConflictError(`Cannot delete ${input}: it does not exist`);
  if (entry.isDirectory === true) throw new PatchConflictError(`Cannot delete ${input}: it is a directory; apply_patch deletes files`);
  const target = path.posix.join(dir.path, name);
  return { target, version: entry.isFile === true ? (await workspace.stat(target, signal)).version : undefined };
}

/**
 * Validate EVERY hunk against the workspace before anything is written: targets of adds and
 * moves must not exist, deleted and updated files must, every chunk must match, and no file
 * may be named twice (by any spelling: `a.txt`, `./a.txt`, a symlink to it). The result is
 * the complete list of writes; nothing has changed yet.
 */
export async function planPatch(hunks: readonly PatchHunk[], workspace: WorkspaceService, signal: AbortSignal): Promise<PlannedChange[]> {
  const claimed = new Map<string, string>();
  const claim = (target: string, input: string): void => {
    const first = claimed.get(target);
    if (first === input) throw new PatchConflictError(`${input} appears more than once in the patch; combine its changes into one hunk`);
    if (first !== undefined) throw new PatchConflictError(`${first} and ${input} are the same file (${target}); combine their changes into one hunk`);
    claimed.set(target, input);
  };
  const plan: PlannedChange[] = [];
  let read = 0;
  for (const hunk of hunks) {
    if (hunk.kind === 'add') {
      const { target, createdDirs } = await resolveNew(workspace, hunk.path, `Cannot add ${hunk.path}: it already exists (use '*** Update File:' to change it)`, signal);
      claim(target, hunk.path);
      plan.push({ op: 'add', path: hunk.path, target, after: hunk.contents, createdDirs });
    } else if (hunk.kind === 'delete') {
      const { target, version } = await resolveExisting(workspace, hunk.path, signal);
      claim(target, hunk.path);
      plan.push({ op: 'delete', path: hunk.path, target, version });
    } else {
      const source = await readForRewrite(workspace, hunk.path, signal);
      claim(source.target, hunk.path);
      read += source.bytes.length;
      if (read > PATCH_MAX_BYTES) {
        throw new FsToolError('INVALID_ARGUMENT', `The patch rewrites more than ${PATCH_MAX_BYTES / 1024 / 1024} MiB of existing files`, 'Nothing was changed. Split it into several smaller patches.');
      }
      const after = applyChunks(source.text, hunk.chunks, hunk.path);
      if (hunk.movePath === undefined) {
        plan.push({ op: 'update', path: hunk.path, target: source.target, version: source.version, before: source.bytes, after });
        continue;
      }
      if (source.isSymbolicLink) throw new PatchConflictError(`Cannot move ${hunk.path}: it is a symbolic link; apply_patch moves regular files`);
      const moved = await resolveNew(workspace, hunk.movePath, `Cannot move ${hunk.path} to ${hunk.movePath}: the target already exists`, signal);
      claim(moved.target, hunk.movePath);
      // Permission bits only: set-id bits are not carried onto content the patch wrote.
      const mode = source.mode === undefined ? undefined : source.mode & 0o777;
      plan.push({ op: 'move', path: hunk.path, target: source.target, version: source.version, mode, newPath: hunk.movePath, newTarget: moved.target, after, createdDirs: moved.createdDirs });
    }
  }
  return plan;
}
