import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { SandboxError } from '../../../sdk/sandbox/errors.js';

export interface ProtectedContainerMounts {
  /** `HostConfig.Binds` entries: each existing protected path read-only, each parent of one onto itself. */
  binds: string[];
  /** `HostConfig.Tmpfs` entries: a missing protected path becomes an empty read-only mount, so nothing can be created there. */
  tmpfs: Record<string, string>;
}

/**
 * With the workspace mounted read-write, a command could rewrite what the fs tools may not
 * (the loaded config, `.git`, `.pincer`). Each protected path is mounted read-only over the
 * workspace mount; a missing one gets an empty read-only tmpfs (the engine creates its empty
 * mount point in the workspace, which stays empty: nothing can be written through it). A parent
 * directory of a protected path is mounted onto itself, so renaming it fails (EBUSY) instead of
 * moving the protection away from the name.
 */
export function protectedContainerMounts(workspaceDir: string, workdir: string, protectedPaths: readonly string[] = []): ProtectedContainerMounts {
  const binds: string[] = [];
  const tmpfs: Record<string, string> = {};
  const parents = new Set<string>();
  for (const rel of protectedPaths) {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i += 1) parents.add(parts.slice(0, i).join('/'));
    const host = path.join(workspaceDir, ...parts);
    const inContainer = path.posix.join(workdir, rel);
    const stat = lstatOrUndefined(host);
    if (stat?.isSymbolicLink()) {
      throw new SandboxError('SECURITY_VIOLATION', `Protected path ${rel} is a symbolic link: a read-write docker workspace cannot hold it read-only. Replace the link, or use workspaceAccess "ro".`);
    }
    // An empty directory (often the mount point the engine left for a missing one) gets the same
    // empty read-only tmpfs, so the plan, and with it the container, stays the same across sessions.
    if (stat && !isEmptyDirectory(host, stat)) binds.push(`${host}:${inContainer}:ro`);
    else tmpfs[inContainer] = 'ro,size=4k,mode=0555';
  }
  for (const rel of parents) {
    const host = path.join(workspaceDir, ...rel.split('/'));
    const stat = lstatOrUndefined(host);
    if (stat?.isDirectory()) binds.push(`${host}:${path.posix.join(workdir, rel)}:rw`);
  }
  return { binds, tmpfs };
}

function isEmptyDirectory(p: string, stat: Stats): boolean {
  return stat.isDirectory() && readdirSync(p).length === 0;
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}
