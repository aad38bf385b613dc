import fs, { type FileHandle } from 'node:fs/promises';
import { constants, readlinkSync, realpathSync, statSync } from 'node:fs';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { changedError } from './held-directory.js';
import type { GuardedPath, PathGuard } from './path-guard.js';

/**
 * Where an open fd really points. Linux names it in /proc/self/fd, which is the
 * only answer that cannot race; elsewhere null and the caller falls back to
 * comparing dev+ino.
 */
async function realPathOfFd(handle: FileHandle): Promise<string | null> {
  try {
    return readlinkSync(`/proc/self/fd/${handle.fd}`); // metadata: synchronous, see canonical.ts
  } catch {
    return null;
  }
}

function sameFile(a: { dev: number; ino: number }, b: { dev: number; ino: number }): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Open an admitted path and prove the fd is the file that was checked: O_NOFOLLOW
 * refuses a final component swapped for a symlink (ELOOP), and the fd's real
 * path (or dev+ino) must still be the canonical path inside the mount, which
 * catches a parent directory swapped between the check and the open.
 */
export async function openVerified(guard: PathGuard, guarded: GuardedPath, flags: number = constants.O_RDONLY): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(guarded.hostPath, flags | constants.O_NOFOLLOW);
  } catch (error) {
    throw toWorkspaceError(error, guarded.input, 'open');
  }
  try {
    const real = await realPathOfFd(handle);
    if (real !== null) {
      if (real !== guarded.hostPath || (await guard.mountOfHostPath(real)) === null) throw changedError(guarded.input);
    } else {
      const opened = await handle.stat();
      const named = statSync(guarded.hostPath);
      const realNow = realpathSync.native(guarded.hostPath);
      if (!sameFile(opened, named) || realNow !== guarded.hostPath) throw changedError(guarded.input);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw toWorkspaceError(error, guarded.input, 'open');
  }
}

/**
 * The read-policy contract of seed 003: when the caller names the policy path it
 * authorized, the opened target must still BE that path's file (dev+ino), or the
 * read/stat is refused with POLICY_PATH_MISMATCH.
 */
export async function assertPolicyPathNamesTarget(guard: PathGuard, expectedPolicyPath: string, handle: FileHandle): Promise<void> {
  const mismatch = (cause?: unknown) =>
    new WorkspaceError('POLICY_PATH_MISMATCH', `The policy path ${expectedPolicyPath} no longer names the opened file`, { path: expectedPolicyPath, cause });
  let policy;
  try {
    const admitted = await guard.admit(expectedPolicyPath);
    policy = statSync(admitted.hostPath);
  } catch (error) {
    throw mismatch(error);
  }
  const opened = await handle.stat();
  if (!sameFile(opened, policy)) throw mismatch();
}
