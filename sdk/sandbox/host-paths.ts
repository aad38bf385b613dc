import { realpathSync } from 'node:fs';
import { posix } from 'node:path';

/** POSIX-normalize a host path: resolve `.`/`..`, collapse `//`, strip a trailing `/` (`/` stays). */
export function normalizeHostPath(raw: string): string {
  if (!raw) return '/';
  return posix.normalize(raw).replace(/\/+$/, '') || '/';
}

/** True when `target` is `root` or below it (both already normalized). */
export function isPathInside(root: string, target: string): boolean {
  if (root === '/') return target.startsWith('/');
  return target === root || target.startsWith(`${root}/`);
}

/**
 * Canonical form of a path that may not exist yet: realpath of its deepest existing
 * ancestor plus the missing suffix. This is what catches a bind whose parent directory
 * is a symlink to `/etc` even when the leaf has not been created.
 */
export function resolvePathViaExistingAncestor(path: string): string {
  const normalized = normalizeHostPath(path);
  if (!normalized.startsWith('/')) return normalized;
  const suffix: string[] = [];
  let cursor = normalized;
  for (;;) {
    try {
      const real = realpathSync(cursor);
      return normalizeHostPath(posix.join(real, ...suffix.reverse()));
    } catch {
      if (cursor === '/') return normalized;
      suffix.push(posix.basename(cursor));
      cursor = posix.dirname(cursor);
    }
  }
}
