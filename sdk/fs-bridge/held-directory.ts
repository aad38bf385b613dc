import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { WorkspaceError, toWorkspaceError } from './errors.js';

const PROC_FD = '/proc/self/fd';
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Linux names an open fd as a directory prefix (`/proc/self/fd/N/name`): Node's only way to an openat. */
export const CAN_ADDRESS_BY_FD = (() => {
  try {
    return readdirSync(PROC_FD).length > 0;
  } catch {
    return false;
  }
})();

export function changedError(input: string): WorkspaceError {
  return new WorkspaceError('PATH_NOT_ADMITTED', `Path changed between the check and the operation (a directory or symbolic link was swapped in); refusing: ${input}`, { path: input });
}

function errno(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * A directory held open by fd. Every entry is addressed through the fd, so a parent
 * renamed or swapped for a symlink after the directory was opened cannot redirect what
 * is created, renamed or removed in it. Without /proc (not Linux) entries are addressed
 * by path and only `verify` protects them.
 *
 * Metadata calls are synchronous on purpose (cached dentry walks, see canonical.ts).
 */
export class HeldDirectory {
  private constructor(
    readonly fd: number,
    /** Where the directory must be: its canonical host path. */
    readonly hostPath: string,
    private readonly input: string,
  ) {}

  /** Open a mount root (a pinned canonical path) and prove the fd is that directory. */
  static openRoot(hostRoot: string, input: string): HeldDirectory {
    let fd: number;
    try {
      fd = openSync(hostRoot, DIRECTORY_FLAGS);
    } catch (error) {
      throw errno(error) === 'ENOENT' ? new WorkspaceError('NOT_FOUND', `The mount behind ${input} is gone (${hostRoot})`, { path: input }) : changedError(input);
    }
    const root = new HeldDirectory(fd, hostRoot, input);
    try {
      root.verify();
    } catch (error) {
      root.close();
      throw error;
    }
    return root;
  }

  /** The directory at `hostPath` if it can be opened and /proc names it by that very path; else null. */
  static openVerifiedOrNull(hostPath: string, input: string): HeldDirectory | null {
    let fd: number;
    try {
      fd = openSync(hostPath, DIRECTORY_FLAGS);
    } catch {
      return null;
    }
    const held = new HeldDirectory(fd, hostPath, input);
    try {
      if (readlinkSync(`${PROC_FD}/${fd}`) === hostPath) return held;
    } catch {
      // fall through: the caller walks component by component
    }
    held.close();
    return null;
  }

  /** The directory itself as a path (`/proc/self/fd/N`), for listing it. */
  get self(): string {
    return CAN_ADDRESS_BY_FD ? `${PROC_FD}/${this.fd}` : this.hostPath;
  }

  /** An entry of this directory, addressed through the held fd. */
  at(name: string): string {
    return CAN_ADDRESS_BY_FD ? `${PROC_FD}/${this.fd}/${name}` : path.join(this.hostPath, name);
  }

  /** Refuse when the held directory is no longer at its path (moved away, replaced, deleted). */
  verify(): void {
    let where: string | null;
    if (CAN_ADDRESS_BY_FD) {
      where = readlinkSync(`${PROC_FD}/${this.fd}`);
    } else {
      const held = fstatSync(this.fd);
      const named = lstatSync(this.hostPath, { throwIfNoEntry: false });
      where = named !== undefined && named.dev === held.dev && named.ino === held.ino ? realpathSync.native(this.hostPath) : null;
    }
    if (where !== this.hostPath) throw changedError(this.input);
  }

  /** Open a subdirectory without following a symlink; create it first when asked and missing. */
  child(name: string, create: boolean): HeldDirectory {
    try {
      return new HeldDirectory(openSync(this.at(name), DIRECTORY_FLAGS), path.join(this.hostPath, name), this.input);
    } catch (error) {
      if (errno(error) === 'ENOENT' && create) {
        try {
          mkdirSync(this.at(name));
        } catch (mkdirError) {
          if (errno(mkdirError) !== 'EEXIST') throw toWorkspaceError(mkdirError, this.input, 'create directory');
        }
        return this.child(name, false);
      }
      // O_DIRECTORY | O_NOFOLLOW fails with ENOTDIR on a file AND on a symlink: tell them apart.
      if (errno(error) === 'ENOTDIR' || errno(error) === 'ELOOP') {
        if (lstatSync(this.at(name), { throwIfNoEntry: false })?.isSymbolicLink() === true) throw changedError(this.input);
        throw new WorkspaceError('NOT_A_DIRECTORY', `A parent of ${this.input} is not a directory: ${name}`, { path: this.input });
      }
      throw toWorkspaceError(error, this.input, 'open');
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

/**
 * Hold the directory `segments` (canonical, symlink-free names) below a mount root. Fast
 * path on Linux: open it by its full path and accept the fd only if /proc names it by
 * exactly that path (so no symlink was on the way). Otherwise (missing directories to
 * create, a failed check, no /proc) walk from the root, holding each directory open and
 * opening the next one relative to it; a symlink met on the way was swapped in after the
 * check, and is refused.
 */
export function openDirectoryChain(hostRoot: string, segments: readonly string[], options: { create?: boolean; input: string }): HeldDirectory {
  if (CAN_ADDRESS_BY_FD && segments.length > 0) {
    const direct = HeldDirectory.openVerifiedOrNull(path.join(hostRoot, ...segments), options.input);
    if (direct !== null) return direct;
  }
  let current = HeldDirectory.openRoot(hostRoot, options.input);
  for (const name of segments) {
    try {
      const next = current.child(name, options.create === true);
      current.close();
      current = next;
    } catch (error) {
      current.close();
      throw error;
    }
  }
  return current;
}
