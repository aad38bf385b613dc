import { WorkspaceError } from './errors.js';
import { pathSyntaxProblem } from './path-limits.js';
import { hasParentSegment, joinInRoot, normalizeIn, pathApiOf, relativeInsideRoot, rootSyntaxOf } from './path-syntax.js';

/**
 * One mount of the sandbox namespace: `containerRoot` is what the model sees,
 * `hostRoot` is where the backend finds it. The container root declares the
 * path syntax (see path-syntax.ts).
 */
export interface PathMapping {
  hostRoot: string;
  containerRoot: string;
  /** Writes through this mapping fail with READ_ONLY_MOUNT. */
  readOnly?: boolean;
  /**
   * Mount-relative POSIX paths no mutation may touch, at or below them (and no remove or
   * move of an ancestor), judged on the canonical path; refused with PROTECTED_PATH.
   */
  protectedPaths?: readonly string[];
}

export interface MappedPath {
  /** The admitted path in the sandbox namespace, normalized in its root's syntax. */
  containerPath: string;
  /** The same path on the host, built lexically (symlinks not yet resolved). */
  hostPath: string;
  mapping: PathMapping;
  /** Path below the mapping's container root, in the root's syntax ('' for the root). */
  relative: string;
}

/**
 * The deepest mapping whose container root contains `target`; equal roots keep
 * the given order (the first wins). Returns null on a miss: a miss never falls
 * back to a host root, and an empty list admits nothing.
 */
export function resolvePathMapping(mappings: readonly PathMapping[], target: string): MappedPath | null {
  let best: MappedPath | null = null;
  for (const mapping of mappings) {
    const relative = relativeInsideRoot(mapping.containerRoot, target);
    // A shorter remainder means a deeper root; `>=` keeps the earlier of two equal roots.
    if (relative === null || (best !== null && relative.length >= best.relative.length)) continue;
    best = { mapping, relative, containerPath: joinInRoot(mapping.containerRoot, relative), hostPath: hostPathFor(mapping, relative) };
  }
  return best;
}

/** Build the host path of a relative remainder, splitting it by the container root's separator. */
function hostPathFor(mapping: PathMapping, relative: string): string {
  const containerSyntax = rootSyntaxOf(mapping.containerRoot) ?? 'posix';
  const segments = relative === '' ? [] : relative.split(containerSyntax === 'posix' ? '/' : '\\');
  const hostSyntax = rootSyntaxOf(mapping.hostRoot) ?? 'posix';
  return pathApiOf(hostSyntax).join(normalizeIn(hostSyntax, mapping.hostRoot), ...segments);
}

/**
 * Reverse lookup: the mapping whose HOST root contains `hostPath`, deepest first.
 * Among mappings sharing that host root, `prefer` wins, else the first given.
 */
export function resolveHostMapping(
  mappings: readonly PathMapping[],
  hostPath: string,
  prefer?: PathMapping,
): MappedPath | null {
  let best: MappedPath | null = null;
  for (const mapping of mappings) {
    const relative = relativeInsideRoot(mapping.hostRoot, hostPath);
    if (relative === null) continue;
    const better = best === null || relative.length < best.relative.length || (relative.length === best.relative.length && mapping === prefer);
    if (!better) continue;
    const hostSyntax = rootSyntaxOf(mapping.hostRoot) ?? 'posix';
    const segments = relative === '' ? [] : relative.split(pathApiOf(hostSyntax).sep);
    const containerSyntax = rootSyntaxOf(mapping.containerRoot) ?? 'posix';
    const containerPath = pathApiOf(containerSyntax).join(normalizeIn(containerSyntax, mapping.containerRoot), ...segments);
    best = { mapping, relative, containerPath, hostPath: normalizeIn(hostSyntax, hostPath) };
  }
  return best;
}

export interface MapWorkspacePathOptions {
  /** Container directory a relative path is resolved against; defaults to the first mapping's container root. */
  cwd?: string;
}

/**
 * Admit a workspace path as the model wrote it: relative (against the primary
 * container root) or absolute inside the sandbox namespace. `..` that climbs out
 * of the mounts is refused lexically, before anything touches the disk.
 */
export function mapWorkspacePath(
  mappings: readonly PathMapping[],
  input: string,
  options: MapWorkspacePathOptions = {},
): MappedPath {
  const problem = pathSyntaxProblem(input);
  if (problem !== null) throw new WorkspaceError('PATH_NOT_ADMITTED', problem, { path: input });
  const primary = mappings[0];
  if (primary === undefined) {
    throw new WorkspaceError('PATH_NOT_ADMITTED', `No path is admitted: this sandbox has no path mappings: ${input}`, { path: input });
  }
  const base = options.cwd ?? primary.containerRoot;
  const syntax = rootSyntaxOf(base);
  if (syntax === null) {
    throw new WorkspaceError('PATH_NOT_ADMITTED', `Container root is not an absolute path: ${base}`, { path: input });
  }
  const api = pathApiOf(syntax);
  const raw = input === '' ? '.' : input;
  const absolute = api.isAbsolute(raw) ? raw : api.join(base, raw);
  const mapped = resolvePathMapping(mappings, absolute);
  if (mapped !== null) return mapped;
  if (hasParentSegment(raw, syntax)) {
    throw new WorkspaceError('PATH_OUTSIDE_MOUNT', `Path escapes the sandbox mounts through '..': ${input}`, { path: input });
  }
  const roots = mappings.map((m) => m.containerRoot).join(', ');
  throw new WorkspaceError('PATH_NOT_ADMITTED', `Path is outside every mount (${roots}): ${input}`, { path: input });
}
