import path from 'node:path';

/**
 * Protected paths: workspace-relative locations (the loaded config, `.pincer`, `.git`)
 * that no mutating operation may touch. Pure: every backend judges the CANONICAL path
 * of a target (after symlinks are resolved) with these functions or their in-sandbox
 * twin, so an alias (`./.git`, a symlink to `.git`) is caught like the name itself.
 *
 * Names compare without regard to ASCII case, so `.GIT` on a case-insensitive file
 * system (or bind mount of one) is caught too; on a case-sensitive one `.GIT` is then
 * over-protected, which only costs a refusal.
 */
export type ProtectedRelation = 'inside' | 'ancestor' | 'none';

export class ProtectedPathSyntaxError extends Error {
  override readonly name = 'ProtectedPathSyntaxError';
}

/** ASCII-only case folding: the same rule the in-sandbox check applies with `tr A-Z a-z`. */
export function foldCase(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Validate and normalize configured entries to folded POSIX relative paths. An absolute
 * path, `..`, a NUL or a path naming the whole workspace is refused, naming the entry.
 */
export function normalizeProtectedPaths(entries: readonly string[], where = 'protectedPaths'): string[] {
  const out = new Set<string>();
  entries.forEach((entry, index) => {
    const problem = (why: string) => new ProtectedPathSyntaxError(`${where}[${index}] ${JSON.stringify(entry)} ${why}`);
    if (entry.includes('\0')) throw problem('contains a NUL byte');
    if (entry.startsWith('/') || /^[A-Za-z]:[\\/]/.test(entry)) throw problem('must be relative to the workspace, not absolute');
    const normalized = path.posix.normalize(entry.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (normalized === '..' || normalized.startsWith('../')) throw problem('leaves the workspace');
    if (normalized === '.' || normalized === '') throw problem('names the whole workspace; use a read-only workspace instead');
    out.add(foldCase(normalized));
  });
  return [...out];
}

/**
 * How a canonical mount-relative POSIX path (`''` for the mount root) relates to the
 * protected set: `inside` (at or below one), `ancestor` (moving or removing it would
 * take a protected path along), or `none`.
 */
export function protectedRelation(protectedPaths: readonly string[], relative: string): ProtectedRelation {
  if (protectedPaths.length === 0) return 'none';
  const rel = foldCase(relative);
  let ancestor = false;
  for (const p of protectedPaths) {
    if (p === '' || rel === p || rel.startsWith(`${p}/`)) return 'inside';
    if (rel === '' || p.startsWith(`${rel}/`)) ancestor = true;
  }
  return ancestor ? 'ancestor' : 'none';
}

/**
 * The protected paths of one mount, given the protected paths of the workspace and both
 * host directories: a mount of a workspace subdirectory keeps the entries below it
 * (re-rooted), a mount of a protected directory (or anything below one) is protected
 * whole (`''`). Used by backends whose other mounts may show the workspace's files.
 */
export function protectedPathsForMount(workspaceHostDir: string, mountHostDir: string, workspaceProtected: readonly string[]): string[] {
  const out: string[] = [];
  const mountDir = foldCase(path.resolve(mountHostDir));
  for (const p of workspaceProtected) {
    const protectedHost = foldCase(path.join(path.resolve(workspaceHostDir), p));
    const inMount = path.relative(mountDir, protectedHost);
    const mountInProtected = path.relative(protectedHost, mountDir);
    if (mountInProtected === '' || (!mountInProtected.startsWith('..') && !path.isAbsolute(mountInProtected))) return [''];
    if (!inMount.startsWith('..') && !path.isAbsolute(inMount)) out.push(inMount.split(path.sep).join('/'));
  }
  return out;
}
