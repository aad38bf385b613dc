import { lstatSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { isReadOnlyBindOptions, splitSandboxBindSpec } from './bind-spec.js';
import { SANDBOX_AGENT_WORKSPACE_MOUNT } from './constants.js';
import { isPathInside, normalizeHostPath, resolvePathViaExistingAncestor } from './host-paths.js';

export type WorkspaceAccess = 'none' | 'ro' | 'rw';
export type SandboxMountSource = 'workspace' | 'agent' | 'skills' | 'bind';

/** One host directory visible inside the sandbox. */
export interface SandboxMount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
  source: SandboxMountSource;
}

export interface SandboxMountInput {
  workspaceDir: string;
  agentWorkspaceDir: string;
  /** Container workdir (default `/workspace`). */
  workdir: string;
  workspaceAccess: WorkspaceAccess;
  /** Operator binds, already security-validated. */
  binds?: readonly string[];
  /** Where materialized skills live; default `<agentWorkspace>/.pincer/sandbox-skills`. */
  skillsWorkspaceDir?: string;
}

const containerJoin = (root: string, ...parts: string[]) => posix.join(root, ...parts);

// A skill mount is kept only for a real directory (not a symlink) inside its root, so a
// symlink cannot turn the "read-only skills" mount into a bind of somewhere else.
function isRealDirInside(root: string, dir: string): boolean {
  try {
    if (!lstatSync(dir).isDirectory()) return false;
  } catch {
    return false;
  }
  return isPathInside(resolvePathViaExistingAncestor(resolve(root)), resolvePathViaExistingAncestor(resolve(dir)));
}

/**
 * Skill directories, mounted read-only over the writable workspace: an agent may read its
 * instructions but never rewrite them. Only relevant when the workspace is writable.
 */
export function resolveReadOnlySkillMounts(input: SandboxMountInput): SandboxMount[] {
  if (input.workspaceAccess !== 'rw') return [];
  const root = input.agentWorkspaceDir;
  const skillsWorkspace = input.skillsWorkspaceDir ?? join(root, '.pincer', 'sandbox-skills');
  const candidates = [
    { root, hostPath: join(root, 'skills'), containerPath: containerJoin(input.workdir, 'skills') },
    { root, hostPath: join(root, '.agents', 'skills'), containerPath: containerJoin(input.workdir, '.agents', 'skills') },
    { root: skillsWorkspace, hostPath: join(skillsWorkspace, 'skills'), containerPath: containerJoin(input.workdir, '.pincer', 'sandbox-skills', 'skills') },
  ];
  return candidates
    .filter((c) => isRealDirInside(c.root, c.hostPath))
    .map((c) => ({ hostPath: c.hostPath, containerPath: c.containerPath, readOnly: true, source: 'skills' as const }));
}

/** Parses operator binds into mounts; unparseable or relative-target binds are skipped. */
export function resolveBindMounts(binds: readonly string[] = []): SandboxMount[] {
  return binds.flatMap((bind) => {
    const parts = splitSandboxBindSpec(bind);
    if (!parts?.host || !parts.container.startsWith('/')) return [];
    return [{ hostPath: parts.host, containerPath: normalizeHostPath(parts.container), readOnly: isReadOnlyBindOptions(parts.options), source: 'bind' as const }];
  });
}

/**
 * The full mount table (SPEC §5.5): workspace at the workdir (read-only unless `rw`),
 * agent workspace at `/agent` when distinct and access ≠ none, read-only skills, then binds.
 * Later entries with the same container path replace earlier ones, except that a bind
 * can never replace a protected skill mount.
 */
export function resolveSandboxMounts(input: SandboxMountInput): SandboxMount[] {
  const table = new Map<string, SandboxMount>();
  const put = (m: SandboxMount) => table.set(normalizeHostPath(m.containerPath), { ...m, containerPath: normalizeHostPath(m.containerPath) });
  put({ hostPath: input.workspaceDir, containerPath: input.workdir, readOnly: input.workspaceAccess !== 'rw', source: 'workspace' });
  if (input.workspaceAccess !== 'none' && resolve(input.workspaceDir) !== resolve(input.agentWorkspaceDir)) {
    put({ hostPath: input.agentWorkspaceDir, containerPath: SANDBOX_AGENT_WORKSPACE_MOUNT, readOnly: input.workspaceAccess !== 'rw', source: 'agent' });
  }
  const skills = resolveReadOnlySkillMounts(input);
  skills.forEach(put);
  const protectedTargets = new Set(skills.map((s) => s.containerPath));
  for (const bind of resolveBindMounts(input.binds)) {
    if (!protectedTargets.has(bind.containerPath)) put(bind);
  }
  return [...table.values()];
}

/** Docker `HostConfig.Binds` strings for a mount table. */
export function toDockerBinds(mounts: readonly SandboxMount[]): string[] {
  return mounts.map((m) => `${m.hostPath}:${m.containerPath}:${m.readOnly ? 'ro' : 'rw'}`);
}
