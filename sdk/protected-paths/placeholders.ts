import { lstatSync, mkdirSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { WorkspaceError } from '../plugin/errors.js';

/**
 * A protected path that does not exist yet must not be created by a confined command or plugin (a fresh
 * `.git/config` with `core.fsmonitor` runs on the host at the operator's next `git status`).
 * bubblewrap can only mount over something that exists, so the backend creates an empty
 * directory there for the command's lifetime, mounts it read-only, and removes it afterwards.
 * Counted per host path: removing a mount point detaches it in every namespace, so it stays
 * while any command of this process still relies on it.
 */
const holders = new Map<string, number>();

export interface ProtectedMounts {
  /** Host paths to mount read-only onto themselves, parents first. */
  readOnly: string[];
  /** Directories between the workspace and a protected path: mounted onto themselves so a rename cannot move the protection away. */
  ancestors: string[];
  release(): void;
}

const realOrUndefined = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return undefined; // a dangling link
  }
};
/** `p` resolves (through every symbolic link) to `root` or below it. */
const resolvesWithin = (p: string, root: string) => {
  const real = realOrUndefined(p);
  return real !== undefined && (real === root || real.startsWith(`${root}${path.sep}`));
};
const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * Creates the missing ones (and their missing parents) and returns what to mount. With
 * `create: false` nothing is created: only what exists is held (for a process whose own code
 * refuses to create protected paths, which would otherwise keep placeholders for its lifetime).
 * Used by the local backend for each confined command and by the kernel for each confined plugin.
 */
export function holdProtectedPaths(workspaceDir: string, protectedPaths: readonly string[], options: { create?: boolean } = {}): ProtectedMounts {
  const create = options.create ?? true;
  const created: string[] = [];
  const readOnly: string[] = [];
  const ancestors = new Set<string>();
  const release = () => {
    for (const dir of created.reverse()) {
      const left = (holders.get(dir) ?? 1) - 1;
      if (left > 0) holders.set(dir, left);
      else {
        holders.delete(dir);
        try {
          rmdirSync(dir); // only while still empty: anything a host process put there stays
        } catch {
          // not empty, or already gone
        }
      }
    }
  };
  const realRoot = realpathSync(workspaceDir);
  /** Holds `dir` (creating it when missing); false when nothing can be created there. */
  const hold = (dir: string, last: boolean): boolean => {
    const count = holders.get(dir);
    if (count !== undefined) {
      holders.set(dir, count + 1);
      created.push(dir);
      return true;
    }
    if (exists(dir)) return true;
    if (!create) return false;
    // Never create through a symbolic link that leads out of the workspace.
    if (!resolvesWithin(path.dirname(dir), realRoot)) return false;
    try {
      mkdirSync(dir, { mode: last ? 0o555 : 0o755 });
    } catch {
      return false; // a file where a parent should be: nothing can be created below it
    }
    holders.set(dir, 1);
    created.push(dir);
    return true;
  };
  try {
    for (const rel of protectedPaths) {
      const parts = rel.split('/');
      const target = path.join(workspaceDir, ...parts);
      for (let i = 1; i <= parts.length; i += 1) {
        const dir = path.join(workspaceDir, ...parts.slice(0, i));
        if (!hold(dir, i === parts.length)) break;
        // Bound read-write onto itself: only where it really lies inside the workspace.
        if (i < parts.length && resolvesWithin(dir, realRoot)) ancestors.add(dir);
      }
      if (!exists(target)) continue;
      try {
        statSync(target);
      } catch (cause) {
        throw new WorkspaceError('SECURITY_VIOLATION', `Protected path ${rel} is a dangling symbolic link: it cannot be held read-only, so the command was not run`, { path: rel, cause });
      }
      readOnly.push(target);
    }
  } catch (error) {
    release();
    throw error;
  }
  return { readOnly, ancestors: [...ancestors], release };
}
