/**
 * The paths no tool may change, per workspace: `tools.fs.protectedPaths` (default `.git` and
 * `.pincer`) plus, always, the config file the kernel loaded when it lies inside the
 * workspace, so an agent cannot edit its own fences, and the code of every plugin allowed to
 * run from inside it (plugin-code-paths.ts), so an agent cannot edit what the host runs.
 * Backends enforce the list after canonical resolution; here it is only computed, once per
 * workspace, at kernel creation.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../config/errors.js';

export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze(['.git', '.pincer']);

/**
 * A configured entry as the backends take it (workspace-relative POSIX, no `.` or `..`
 * segments, no trailing slash), or an explanation of why it cannot be one.
 */
export function normalizeProtectedPath(raw: string): { path: string } | { problem: string } {
  const text = raw.trim().replaceAll('\\', '/');
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text)) return { problem: 'must be relative to the workspace (e.g. ".git"), not absolute' };
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return { problem: 'must stay inside the workspace (no ".." segments)' };
  if (segments.length === 0) return { problem: 'names the whole workspace; use sandbox workspaceAccess "ro" for a read-only workspace' };
  return { path: posix.join(...segments) };
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there (yet): judge the path as written.
    return path;
  }
}

/** `file` relative to `dir` in POSIX form, when it lies strictly inside. */
function inside(dir: string, file: string): string | undefined {
  const rel = relative(dir, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * The protected paths of each workspace, computed up front for the given workspaces
 * (assembly stays free of disk access); any other workspace is computed on first use.
 * An entry that is not a workspace-relative path is an error, never silently dropped.
 */
export function createProtectedPaths(
  configured: readonly string[] | undefined,
  configFile: string | undefined,
  workspaces: Iterable<string>,
  pluginCode: (workspaceDir: string) => readonly string[] = () => [],
): (workspaceDir: string) => readonly string[] {
  const base = (configured ?? DEFAULT_PROTECTED_PATHS).map((entry, index) => {
    const normalized = normalizeProtectedPath(entry);
    if ('path' in normalized) return normalized.path;
    const path = `tools.fs.protectedPaths[${index}]`;
    throw new ConfigError('CONFIG_INVALID', 'config is invalid', [{ path, message: `protected path "${entry}" ${normalized.problem}` }]);
  });
  const configPath = configFile === undefined ? undefined : resolve(configFile);
  const byWorkspace = new Map<string, readonly string[]>();
  const compute = (workspaceDir: string): readonly string[] => {
    // The config as named and as resolved: a symlinked workspace or config path must not hide it.
    const candidates = configPath ? [inside(workspaceDir, configPath), inside(canonical(workspaceDir), canonical(configPath))] : [];
    return Object.freeze([...new Set([...base, ...candidates.filter((path): path is string => path !== undefined), ...pluginCode(workspaceDir)])]);
  };
  for (const workspaceDir of workspaces) byWorkspace.set(workspaceDir, compute(workspaceDir));
  return (workspaceDir) => {
    let paths = byWorkspace.get(workspaceDir);
    if (!paths) byWorkspace.set(workspaceDir, (paths = compute(workspaceDir)));
    return paths;
  };
}
