import path from 'node:path';

/**
 * Protected paths: workspace-relative locations (the loaded config, `.pincer`, `.git`)
 * that no mutating operation may touch. Every backend judges the CANONICAL path of a
 * target (after symlinks are resolved) against the protected paths, each both as written
 * and in its own canonical form, with these functions or their in-sandbox twin: an alias
 * (`./.git`, a symlink to `.git`) is caught like the name itself, and so is the file a
 * protected symlink (`pincer.config.json -> conf/prod.json`) stands for.
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
 * Validate and normalize configured entries to relative POSIX paths. An absolute path,
 * `..`, a NUL or a path naming the whole workspace is refused, naming the entry.
 */
export function normalizeProtectedPaths(entries: readonly string[], where = 'protectedPaths'): string[] {
  const out = new Set<string>();
  entries.forEach((entry, index) => {
    const problem = (why: string) => new ProtectedPathSyntaxError(`${where}[${index}] ${JSON.stringify(entry)} ${why}`);
    if (/[\0\n]/.test(entry)) throw problem('contains a NUL byte or a newline');
    if (entry.startsWith('/') || /^[A-Za-z]:[\\/]/.test(entry)) throw problem('must be relative to the workspace, not absolute');
    const normalized = path.posix.normalize(entry.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (normalized === '..' || normalized.startsWith('../')) throw problem('leaves the workspace');
    if (normalized === '.' || normalized === '') throw problem('names the whole workspace; use a read-only workspace instead');
    out.add(normalized);
  });
  return [...out];
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/**
 * How a canonical absolute path relates to the protected absolute paths: `inside` (at or
 * below one), `ancestor` (moving or removing it would take a protected path along), or
 * `none`.
 */
export function protectedRelation(protectedPaths: readonly string[], canonical: string): ProtectedRelation {
  const target = foldCase(canonical);
  let ancestor = false;
  for (const p of protectedPaths) {
    const guarded = foldCase(p);
    if (within(target, guarded)) return 'inside';
    if (within(guarded, target)) ancestor = true;
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
  const mountDir = path.resolve(mountHostDir);
  for (const p of workspaceProtected) {
    const protectedHost = path.join(path.resolve(workspaceHostDir), p);
    if (within(foldCase(mountDir), foldCase(protectedHost))) return [''];
    if (within(foldCase(protectedHost), foldCase(mountDir))) out.push(path.relative(mountDir, protectedHost).split(path.sep).join('/'));
  }
  return out;
}
