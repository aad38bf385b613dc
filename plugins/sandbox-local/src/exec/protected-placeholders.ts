import { lstatSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';

/**
 * A protected path that does not exist yet must not be created by a confined command (a fresh
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

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/** Creates the missing ones (and their missing parents) and returns what to mount. */
export function holdProtectedPaths(workspaceDir: string, protectedPaths: readonly string[]): ProtectedMounts {
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
  try {
    for (const rel of protectedPaths) {
      const target = path.join(workspaceDir, ...rel.split('/'));
      const parts = rel.split('/');
      for (let i = 1; i <= parts.length; i += 1) {
        const dir = path.join(workspaceDir, ...parts.slice(0, i));
        if (holders.has(dir)) holders.set(dir, holders.get(dir)! + 1), created.push(dir);
        else if (!exists(dir)) {
          try {
            mkdirSync(dir, { mode: i === parts.length ? 0o555 : 0o755 });
          } catch {
            break; // a file where a parent should be: nothing can be created below it
          }
          holders.set(dir, 1);
          created.push(dir);
        }
        if (i < parts.length) ancestors.add(dir);
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
