import { lstatSync, readlinkSync } from 'node:fs';
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

/** Symlink hops before giving up, as the kernel's own limit (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Canonical form of a path that may not exist yet, as the engine would meet it: each existing
 * component is resolved, a symlink is followed even when its target does not exist (a dangling
 * `ws/data -> /etc/cron.d/x` is judged as `/etc/cron.d/x`, because creating the mount source
 * would create it there), and the missing rest is appended. This is what catches a bind whose
 * parent directory, or whose leaf, is a symlink out of the allowed roots.
 */
export function resolvePathViaExistingAncestor(path: string): string {
  const normalized = normalizeHostPath(path);
  if (!normalized.startsWith('/')) return normalized;
  const pending = normalized.split('/').filter(Boolean);
  let resolved = '/';
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      resolved = posix.dirname(resolved);
      continue;
    }
    const candidate = posix.join(resolved, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch {
      return normalizeHostPath(posix.join(candidate, ...pending));
    }
    if (!isLink) {
      resolved = candidate;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) return normalizeHostPath(posix.join(candidate, ...pending));
    const target = readlinkSync(candidate);
    if (target.startsWith('/')) resolved = '/';
    pending.unshift(...target.split('/').filter(Boolean));
  }
  return resolved;
}
