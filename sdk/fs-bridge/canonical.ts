import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Same limit as the kernel's symlink hop count on Linux (MAXSYMLINKS). */
const MAX_SYMLINK_HOPS = 40;

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// Metadata look-ups here are synchronous on purpose: each is a cached dentry walk of a few
// microseconds, while the async versions queue on libuv's thread pool and cost ~100 µs apiece,
// several times per guarded operation.

/**
 * The canonical form of a host path that may not exist yet: the realpath of its
 * deepest existing ancestor with the missing suffix re-appended. A dangling
 * symlink on the way is FOLLOWED (to where it points), never treated as a missing
 * name, so `mkdir -p link/sub` cannot be used to create directories outside.
 */
export async function canonicalizeHostPath(hostPath: string, hops = 0): Promise<{ canonical: string; exists: boolean }> {
  if (hops > MAX_SYMLINK_HOPS) {
    throw Object.assign(new Error(`Too many levels of symbolic links: ${hostPath}`), { code: 'ELOOP' });
  }
  const suffix: string[] = [];
  let current = path.resolve(hostPath);
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return { canonical: suffix.length === 0 ? real : path.join(real, ...suffix.reverse()), exists: suffix.length === 0 };
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const link = await readLinkIfSymlink(current);
    if (link !== null) {
      // Dangling symlink: canonicalize where it points, then keep walking down the suffix.
      const target = path.resolve(path.dirname(current), link);
      const resolved = await canonicalizeHostPath(target, hops + 1);
      return { canonical: suffix.length === 0 ? resolved.canonical : path.join(resolved.canonical, ...suffix.reverse()), exists: false };
    }
    const parent = path.dirname(current);
    if (parent === current) return { canonical: path.join(current, ...suffix.reverse()), exists: false };
    suffix.push(path.basename(current));
    current = parent;
  }
}

async function readLinkIfSymlink(hostPath: string): Promise<string | null> {
  try {
    const stat = lstatSync(hostPath);
    return stat.isSymbolicLink() ? readlinkSync(hostPath) : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
