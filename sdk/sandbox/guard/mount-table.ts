import { posix } from 'node:path';
import type { SandboxMountSource } from '../mounts.js';

/**
 * One mount as the path guard sees it. `path` is the namespace the model sees
 * (`/workspace/...`); `target` is where it lives where commands run (the same path in a
 * container, a remote directory over ssh).
 */
export interface GuardMount {
  path: string;
  target: string;
  writable: boolean;
  source: SandboxMountSource;
  /** Host directory behind the mount when this machine can see it (local docker engine). */
  hostRoot?: string;
  /** Mount-relative paths no mutation may touch (`''`: the whole mount); see fs-bridge protected-paths. */
  protectedPaths?: readonly string[];
}

// Equal-length roots: an operator bind beats the agent mount beats the workspace.
export const PRIORITY: Record<SandboxMountSource, number> = { bind: 3, skills: 2, agent: 1, workspace: 0 };

function inside(root: string, p: string): boolean {
  return root === '/' ? p.startsWith('/') : p === root || p.startsWith(`${root}/`);
}

/** Longest prefix wins (SPEC §5.6); `key` picks the namespace or the target side. */
export function findMount(mounts: readonly GuardMount[], p: string, key: 'path' | 'target'): GuardMount | undefined {
  let best: GuardMount | undefined;
  for (const m of mounts) {
    if (!inside(m[key], p)) continue;
    if (!best || m[key].length > best[key].length || (m[key].length === best[key].length && PRIORITY[m.source] > PRIORITY[best.source])) best = m;
  }
  return best;
}

/**
 * Normalizes a model-supplied path into the namespace: backslashes become `/`, relative
 * paths resolve against the workdir, `..` is applied lexically (so `../` can only climb
 * to a root that the mount lookup then refuses).
 */
export function normalizeSandboxPath(input: string, workdir: string): string {
  const slashed = input.replace(/\\/g, '/');
  const absolute = slashed.startsWith('/') ? slashed : posix.join(workdir, slashed);
  return posix.normalize(absolute).replace(/\/+$/, '') || '/';
}

/** Re-roots `p` from one side of a mount to the other. */
export function translate(mount: GuardMount, p: string, from: 'path' | 'target'): string {
  const to = from === 'path' ? 'target' : 'path';
  const rest = p.slice(mount[from] === '/' ? 0 : mount[from].length);
  return posix.normalize(`${mount[to]}/${rest}`).replace(/\/+$/, '') || '/';
}
