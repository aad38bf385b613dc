import { realpathSync } from 'node:fs';
import { ProtectedPathSyntaxError, normalizeProtectedPaths, protectedPathsForMount } from '../../fs-bridge/index.js';
import { SandboxError } from '../errors.js';
import type { GuardMount } from './mount-table.js';

function real(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/**
 * Gives each mount the protected paths (`sandbox/prepare` protectedPaths, relative to the
 * workspace) that fall inside it. `hostDirOf` names the host directory a mount shows (a
 * bind source, or the directory an ssh copy was made from); a mount of a workspace
 * subdirectory keeps the entries below it, a mount of a protected directory is protected
 * whole. Mounts without a host directory get none.
 */
export function protectMounts(
  mounts: readonly GuardMount[],
  workspaceDir: string,
  protectedPaths: readonly string[] | undefined,
  hostDirOf: (mount: GuardMount) => string | undefined = (m) => m.hostRoot,
): GuardMount[] {
  let normalized: string[];
  try {
    normalized = normalizeProtectedPaths(protectedPaths ?? []);
  } catch (error) {
    if (error instanceof ProtectedPathSyntaxError) throw new SandboxError('CONFIG_INVALID', error.message, { cause: error });
    throw error;
  }
  if (normalized.length === 0) return [...mounts];
  const workspace = real(workspaceDir);
  return mounts.map((m) => {
    const hostDir = hostDirOf(m);
    return hostDir === undefined ? m : { ...m, protectedPaths: protectedPathsForMount(workspace, real(hostDir), normalized) };
  });
}
