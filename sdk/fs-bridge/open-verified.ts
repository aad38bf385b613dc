import fs, { type FileHandle } from 'node:fs/promises';
import { closeSync, constants, fstatSync, opendirSync, openSync, readlinkSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { WorkspaceError, toWorkspaceError } from './errors.js';
import { changedError } from './held-directory.js';
import type { GuardedPath, PathGuard } from './path-guard.js';

/**
 * Where an open fd really points. Linux names it in /proc/self/fd, which is the
 * only answer that cannot race; elsewhere null and the caller falls back to
 * comparing dev+ino.
 */
function realPathOfFd(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`); // metadata: synchronous, see canonical.ts
  } catch {
    return null;
  }
}

function sameFile<T extends number | bigint>(a: { dev: T; ino: T }, b: { dev: T; ino: T }): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Throws unless the open fd is still the admitted file, at its canonical path inside a mount. */
async function verifyOpened(guard: PathGuard, guarded: GuardedPath, fd: number): Promise<void> {
  const real = realPathOfFd(fd);
  if (real !== null) {
    if (real !== guarded.hostPath || (await guard.mountOfHostPath(real)) === null) throw changedError(guarded.input);
    return;
  }
  const opened = fstatSync(fd);
  const named = statSync(guarded.hostPath);
  const realNow = realpathSync.native(guarded.hostPath);
  if (!sameFile(opened, named) || realNow !== guarded.hostPath) throw changedError(guarded.input);
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
    await verifyOpened(guard, guarded, handle.fd);
    return handle;
  } catch (error) {
    await handle.close();
    throw toWorkspaceError(error, guarded.input, 'open');
  }
}

/**
 * Waits until no unlink or rename in `dir` is half done. The kernel drops a file's link count
 * before it unhashes the name being removed, both under the directory's lock, so a stat and a
 * /proc check that fall between the two see one link and the name unchanged: an inside hard
 * link to an outside file, being unlinked, passed as a file of its own (59 in 500,000 tight
 * reads against a swapping attacker). Listing the directory takes that lock (shared), so once it
 * returns, such a name is gone and /proc says "(deleted)". One entry is read, whatever the
 * directory's size. It only reads: a rename of the name onto itself would take the same lock
 * for a tenth of the cost, but it resolves the two paths apart, and an attacker swapping the
 * parent for a symlink in between turned it into a move of an outside file into the workspace.
 * A directory that cannot be listed skips the wait (the fd check still runs).
 */
function awaitUnlinkInFlight(dir: string): void {
  try {
    const listing = opendirSync(dir, { bufferSize: 1 });
    try {
      listing.readSync();
    } finally {
      listing.closeSync();
    }
  } catch {
    // Unlistable: nothing to wait on; the fd check decides alone.
  }
}

/**
 * `openVerified` on a raw fd, opened synchronously: for a read that must not queue on the
 * thread pool for each step (open, fstat, read, close each cost a round trip there). The
 * flags must not block (a FIFO opened without O_NONBLOCK would hang the process). The
 * caller closes the fd.
 *
 * The fd is fstat'ed before it is verified, and the stat is returned: what the caller decides
 * from it (a regular file, one link) then holds for the name that was verified. Verified first,
 * an inside name hard-linked to an outside file could be unlinked between the check and the
 * fstat, which then saw one link and let the outside file's bytes through; fstat'ed first, that
 * unlink shows in the check (/proc names the fd's file "… (deleted)") or the stat counted both
 * links, once an unlink caught half done has finished (awaitUnlinkInFlight).
 */
export async function openVerifiedFd(guard: PathGuard, guarded: GuardedPath, flags: number): Promise<{ fd: number; stat: BigIntStats }> {
  let fd: number;
  try {
    fd = openSync(guarded.hostPath, flags | constants.O_NOFOLLOW);
  } catch (error) {
    throw toWorkspaceError(error, guarded.input, 'open');
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (stat.nlink === 1n) awaitUnlinkInFlight(path.dirname(guarded.hostPath));
    await verifyOpened(guard, guarded, fd);
    return { fd, stat };
  } catch (error) {
    closeSync(fd);
    throw toWorkspaceError(error, guarded.input, 'open');
  }
}

/**
 * The read-policy contract of seed 003: when the caller names the policy path it
 * authorized, the opened target must still BE that path's file (dev+ino), or the
 * read/stat is refused with POLICY_PATH_MISMATCH.
 */
export async function assertPolicyPathNamesTarget(guard: PathGuard, expectedPolicyPath: string, handle: FileHandle): Promise<void> {
  await assertPolicyPathNamesFile(guard, expectedPolicyPath, await handle.stat({ bigint: true }));
}

/** `assertPolicyPathNamesTarget` for a target already fstat'ed. */
export async function assertPolicyPathNamesFile(guard: PathGuard, expectedPolicyPath: string, opened: BigIntStats): Promise<void> {
  const mismatch = (cause?: unknown) =>
    new WorkspaceError('POLICY_PATH_MISMATCH', `The policy path ${expectedPolicyPath} no longer names the opened file`, { path: expectedPolicyPath, cause });
  let policy;
  try {
    const admitted = await guard.admit(expectedPolicyPath);
    policy = statSync(admitted.hostPath, { bigint: true });
  } catch (error) {
    throw mismatch(error);
  }
  if (!sameFile(opened, policy)) throw mismatch();
}
