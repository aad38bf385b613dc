/**
 * Where a session's tools find a skill's SKILL.md. Every backend names files in the sandbox
 * namespace (`/workspace/...`), so a skill inside the session's workspace is at the matching
 * path below the workdir (read-only in Docker, whose skill mounts cover it). A skill outside
 * the workspace is served to an unsandboxed session through a read-only mount at
 * `/skills/<source>/<name>`; a sandboxed session cannot see it, so it is left out there.
 */
import { isAbsolute, posix, relative, sep } from 'node:path';
import type { SessionPlacement } from '../workspace/router.js';
import type { MergedSkill } from './types.js';

export const SKILLS_MOUNT_ROOT = '/skills';
const DEFAULT_WORKDIR = '/workspace';

export interface SkillMount {
  hostRoot: string;
  containerRoot: string;
}

export type SkillLocation = { location: string; mount?: SkillMount } | { excluded: string };

/** The workdir a placement's tools see: docker's `workdir` setting, else `/workspace`. */
export function workdirOf(placement: SessionPlacement): string {
  const docker = (placement.backendConfig?.sandbox as { docker?: { workdir?: unknown } } | undefined)?.docker;
  return typeof docker?.workdir === 'string' && docker.workdir.startsWith('/') ? docker.workdir : DEFAULT_WORKDIR;
}

/** `path` relative to `root` when inside it ('' for the root itself), else undefined. */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : rel;
}

/** A path segment from a name or label: no separators, no `.`/`..`, nothing a shell reads twice. */
export function segmentOf(text: string): string {
  const slug = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return slug === '' ? 'skill' : slug;
}

/**
 * @param canonicalWorkspace the workspace's real path (skill directories are canonical)
 * @param taken mount paths already given out in this run (names that slug alike get a suffix)
 */
export function locateSkill(skill: MergedSkill, placement: SessionPlacement, sandboxed: boolean, canonicalWorkspace: string | undefined, taken: Set<string>): SkillLocation {
  const rel = canonicalWorkspace === undefined ? undefined : inside(canonicalWorkspace, skill.dir);
  if (rel !== undefined) return { location: posix.join(workdirOf(placement), ...(rel === '' ? [] : rel.split(sep)), 'SKILL.md') };
  if (sandboxed) return { excluded: `the skill lives outside the workspace (${skill.dir}), which a sandboxed session cannot read; put it in the workspace's skills/ to use it there` };
  const base = posix.join(SKILLS_MOUNT_ROOT, segmentOf(skill.source), segmentOf(skill.name));
  let root = base;
  for (let n = 2; taken.has(root); n += 1) root = `${base}-${n}`;
  taken.add(root);
  return { location: posix.join(root, 'SKILL.md'), mount: { hostRoot: skill.dir, containerRoot: root } };
}
