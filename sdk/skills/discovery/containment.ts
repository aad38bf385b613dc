/**
 * Where a source's skills may live (SPEC §6.2). Managed and personal skills are the user's
 * own and may point anywhere; every other source must resolve inside its root, or inside an
 * operator-allowed symlink target (workspace, project and extra sources only). A bundled
 * directory that escapes means the installed copy was changed by hand, so it says so.
 */
import { isAbsolute, relative, sep } from 'node:path';

export interface ContainmentPolicy {
  /** Candidates must resolve inside their root (or an allowed target). */
  contained: boolean;
  /** Canonical directories a contained source may also resolve into. */
  allowedTargets: readonly string[];
  /** The source ships with Pincer: escapes get their own reasons and a hint. */
  bundled: boolean;
}

export const UNCONTAINED: ContainmentPolicy = Object.freeze({ contained: false, allowedTargets: [], bundled: false });

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export interface Escape {
  reason: 'bundled-symlink-escape' | 'bundled-root-escape' | 'symlink-escape' | 'path-escape';
  detail: string;
}

/** Why `real` may not be used as a skill directory of a root resolving to `rootReal`, or undefined. */
export function escapeOf(policy: ContainmentPolicy, rootReal: string, real: string, viaSymlink: boolean): Escape | undefined {
  if (!policy.contained || isInside(rootReal, real) || policy.allowedTargets.some((target) => isInside(target, real))) return undefined;
  const where = `skipped a skill path that resolves outside its configured root (${real})`;
  if (policy.bundled) {
    const hint = 'hint=likely-stray-local-symlink-or-checkout-mutation';
    return viaSymlink ? { reason: 'bundled-symlink-escape', detail: `${where}; ${hint}` } : { reason: 'bundled-root-escape', detail: `${where}; ${hint}` };
  }
  return viaSymlink ? { reason: 'symlink-escape', detail: where } : { reason: 'path-escape', detail: where };
}
