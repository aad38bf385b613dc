/**
 * The six filesystem sources (SPEC §6.2) as directory sources sharing one watcher pool and one
 * scan cache. Managed and personal directories are the user's own (symlinks may point
 * anywhere, findings are reported, not blocking); the others must stay inside their root or an
 * allowed symlink target, and the ones anyone (or an agent) can write to are scanned before
 * they are listed: a critical finding keeps the skill out.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { SkillsListParams } from '../../../protocol/index.js';
import {
  CONFIGURED_ROOT_DEPTH, SKILL_SOURCES, UNCONTAINED, createDirectorySkillSource, type ContainmentPolicy, type DirectorySkillSource, type ScanCache,
  type SkillFs, type SkillSourceKind, type SourceRoot, type WatcherPool,
} from '../../../sdk/skills/index.js';
import type { SkillDirectories } from './settings.js';

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const contained = (params: SkillsListParams, bundled = false): ContainmentPolicy => ({
  contained: true,
  bundled,
  allowedTargets: bundled ? [] : (params.load?.allowSymlinkTargets ?? []).filter(isAbsolute).map(canonical),
});

/** `<workspace>/<sub>` for a workspace-scoped list, nothing without an absolute workspace. */
const inWorkspace = (params: SkillsListParams, ...sub: string[]): SourceRoot[] =>
  params.workspaceDir && isAbsolute(params.workspaceDir) ? [{ path: join(params.workspaceDir, ...sub) }] : [];

export interface SourceDeps {
  dirs: () => SkillDirectories;
  pool: WatcherPool;
  scanCache: ScanCache;
  fs?: SkillFs;
}

export function createFilesystemSources(deps: SourceDeps): DirectorySkillSource[] {
  const source = (kind: SkillSourceKind, spec: { scope?: 'workspace'; roots: (p: SkillsListParams) => SourceRoot[]; policy: (p: SkillsListParams) => ContainmentPolicy; blockCritical: boolean }) =>
    createDirectorySkillSource({ ...SKILL_SOURCES[kind], ...spec, pool: deps.pool, scanCache: deps.scanCache, fs: deps.fs });
  return [
    source('extra', {
      roots: (p) => (p.load?.extraDirs ?? []).filter(isAbsolute).map((path) => ({ path, maxDepth: CONFIGURED_ROOT_DEPTH })),
      policy: (p) => contained(p),
      blockCritical: true,
    }),
    source('bundled', { roots: () => [{ path: deps.dirs().bundled }], policy: (p) => contained(p, true), blockCritical: true }),
    source('managed', { roots: () => [{ path: deps.dirs().managed }], policy: () => UNCONTAINED, blockCritical: false }),
    source('personal', { roots: () => [{ path: deps.dirs().personal }], policy: () => UNCONTAINED, blockCritical: false }),
    source('project', { scope: 'workspace', roots: (p) => inWorkspace(p, '.agents', 'skills'), policy: (p) => contained(p), blockCritical: true }),
    source('workspace', { scope: 'workspace', roots: (p) => inWorkspace(p, 'skills'), policy: (p) => contained(p), blockCritical: true }),
  ];
}
