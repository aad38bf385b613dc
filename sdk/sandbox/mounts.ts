import { lstatSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
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

const SKILL_SUBDIRS: readonly (readonly string[])[] = [['skills'], ['.agents', 'skills']];
const skillsWorkspaceOf = (input: SandboxMountInput) => input.skillsWorkspaceDir ?? join(input.agentWorkspaceDir, '.pincer', 'sandbox-skills');

/**
 * The agent's skill directories, mounted read-only over the writable workspace (SPEC §5.5): an
 * agent may read its instructions but never rewrite them. Only when the workspace is writable.
 */
export function resolveReadOnlySkillMounts(input: SandboxMountInput): SandboxMount[] {
  if (input.workspaceAccess !== 'rw') return [];
  const root = input.agentWorkspaceDir;
  const skillsWorkspace = skillsWorkspaceOf(input);
  const candidates = [
    ...SKILL_SUBDIRS.map((sub) => ({ root, hostPath: join(root, ...sub), containerPath: containerJoin(input.workdir, ...sub) })),
    { root: skillsWorkspace, hostPath: join(skillsWorkspace, 'skills'), containerPath: containerJoin(input.workdir, '.pincer', 'sandbox-skills', 'skills') },
  ];
  return candidates
    .filter((c) => isRealDirInside(c.root, c.hostPath))
    .map((c) => ({ hostPath: c.hostPath, containerPath: c.containerPath, readOnly: true, source: 'skills' as const }));
}

/** Every skill directory of the workspace, the agent workspace and the skills workspace, canonical. */
function skillDirectories(input: SandboxMountInput): string[] {
  const found = new Set<string>();
  for (const root of new Set([input.workspaceDir, input.agentWorkspaceDir])) {
    for (const sub of SKILL_SUBDIRS) if (isRealDirInside(root, join(root, ...sub))) found.add(canonical(join(root, ...sub)));
  }
  const skillsWorkspace = skillsWorkspaceOf(input);
  if (isRealDirInside(skillsWorkspace, join(skillsWorkspace, 'skills'))) found.add(canonical(join(skillsWorkspace, 'skills')));
  return [...found];
}

const canonical = (path: string) => resolvePathViaExistingAncestor(resolve(path));

/**
 * A skill directory is read-only wherever it shows: a writable mount that contains one (the
 * agent workspace at /agent, a bind of a parent folder) gets a read-only mount on top at the
 * matching path, and a writable bind of (a folder inside) a skill directory becomes read-only.
 */
function protectSkillDirectories(mounts: SandboxMount[], skills: readonly string[]): SandboxMount[] {
  const out: SandboxMount[] = [];
  for (const mount of mounts) {
    if (mount.readOnly) {
      out.push(mount);
      continue;
    }
    const source = canonical(mount.hostPath);
    const insideSkill = skills.some((skill) => isPathInside(skill, source));
    out.push(insideSkill ? { ...mount, readOnly: true } : mount);
    if (insideSkill) continue;
    for (const skill of skills.filter((s) => isPathInside(source, s))) {
      out.push({ hostPath: skill, containerPath: posix.join(mount.containerPath, relative(source, skill)), readOnly: true, source: 'skills' });
    }
  }
  return out;
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
 * can never replace a protected skill mount; last, every skill directory is made read-only
 * at every path it appears under.
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
  const protectedMounts = protectSkillDirectories([...table.values()], skillDirectories(input));
  // A read-only view of a path wins over a writable one at the same container path.
  for (const m of protectedMounts.filter((m) => m.readOnly && table.get(m.containerPath)?.readOnly === false)) put(m);
  for (const m of protectedMounts.filter((m) => !table.has(m.containerPath))) put(m);
  return [...table.values()];
}

/** Docker `HostConfig.Binds` strings for a mount table. */
export function toDockerBinds(mounts: readonly SandboxMount[]): string[] {
  return mounts.map((m) => `${m.hostPath}:${m.containerPath}:${m.readOnly ? 'ro' : 'rw'}`);
}
